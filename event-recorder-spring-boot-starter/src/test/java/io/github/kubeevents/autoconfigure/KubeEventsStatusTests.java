package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.testsupport.InMemoryEventSink;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link KubeEventsStatus} and {@link EffectiveSink}.
 */
class KubeEventsStatusTests {

	@Test
	void describesWritingToTheApiServer() {
		assertThat(new KubeEventsStatus("auto", EffectiveSink.KUBERNETES, "ApiClient bean", "https://10.0.0.1:443",
				false, new SinkTarget.CoreV1(new InMemoryEventSink()))
			.describe()).isEqualTo("writing Events to https://10.0.0.1:443 (ApiClient bean)");
	}

	@Test
	void describesWritingToAnUnknownServer() {
		assertThat(new KubeEventsStatus("auto", EffectiveSink.KUBERNETES, "EventSink bean", null, true,
				new SinkTarget.CoreV1(new InMemoryEventSink()))
			.describe()).isEqualTo("writing Events to the API server (EventSink bean), logging events");
	}

	@Test
	void describesLogging() {
		assertThat(new KubeEventsStatus("log", EffectiveSink.LOG, "kubeevents.sink.mode=log", null, true, null).describe())
			.isEqualTo("not writing to a cluster (kubeevents.sink.mode=log), logging events");
	}

	@Test
	void describesDiscarding() {
		assertThat(new KubeEventsStatus("none", EffectiveSink.NONE, "kubeevents.sink.mode=none", null, false, null).describe())
			.isEqualTo("discarding events (kubeevents.sink.mode=none)");
	}

	@Test
	void sinkIsRequiredExactlyWhenWriting() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new KubeEventsStatus("auto", EffectiveSink.KUBERNETES, "x", null, true, null));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new KubeEventsStatus("log", EffectiveSink.LOG, "x", null, true, new SinkTarget.CoreV1(new InMemoryEventSink())));
	}

	@Test
	void effectiveSinkValuesAreLowerCase() {
		assertThat(EffectiveSink.values()).extracting(EffectiveSink::value).containsExactly("kubernetes", "log", "none");
	}

}
