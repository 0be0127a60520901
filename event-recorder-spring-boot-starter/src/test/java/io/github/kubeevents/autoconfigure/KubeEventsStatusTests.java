package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.testsupport.EchoingEventsV1Sink;
import io.github.kubeevents.testsupport.InMemoryEventSink;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.status.SinkTarget;
import io.github.kubeevents.status.SinkMode;
import io.github.kubeevents.status.EffectiveSink;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link KubeEventsStatus}: the modes, the precedence of the application's sink beans over the
 * connection details, the fallback of {@code auto} when the details find no cluster, and the startup line.
 */
class KubeEventsStatusTests {

	private static final String NOT_IN_KUBERNETES = "not running in Kubernetes; a kubeconfig is used only with"
			+ " kubeevents.kubeconfig.enabled=true or kubeevents.sink.mode=kubernetes";

	@TempDir
	Path tmp;

	private static ApiClient client(String basePath) {
		return new ClientBuilder().setBasePath(basePath).build();
	}

	/** Details that count how often they are asked for a client. */
	private static final class CountingDetails implements KubeEventsConnectionDetails {

		private final ApiClient client = client("http://details:1");

		final AtomicInteger asked = new AtomicInteger();

		@Override
		public ApiClient apiClient() {
			this.asked.incrementAndGet();
			return this.client;
		}

		@Override
		public String description() {
			return "K3sContainer rancher/k3s:test";
		}

	}

	private static DetectedKubeEventsConnectionDetails detected(KubernetesConfigDetector detector,
			boolean kubeconfigAllowed) {
		return new DetectedKubeEventsConnectionDetails(() -> null, detector, kubeconfigAllowed);
	}

	@Test
	void noneNeitherWritesNorLogsAndAsksNothing() {
		CountingDetails details = new CountingDetails();
		KubeEventsStatus status = KubeEventsStatusResolver.resolve(SinkMode.NONE, true,
				() -> new SinkTarget.CoreV1(new InMemoryEventSink()), details);
		assertThat(status).isEqualTo(
				new KubeEventsStatus(SinkMode.NONE, EffectiveSink.NONE, "kubeevents.sink.mode=none", null, false, null));
		assertThat(details.asked).hasValue(0);
	}

	@Test
	void logOnlyLogsAndAsksNothing() {
		CountingDetails details = new CountingDetails();
		KubeEventsStatus status = KubeEventsStatusResolver.resolve(SinkMode.LOG, false,
				() -> new SinkTarget.CoreV1(new InMemoryEventSink()), details);
		assertThat(status).isEqualTo(
				new KubeEventsStatus(SinkMode.LOG, EffectiveSink.LOG, "kubeevents.sink.mode=log", null, true, null));
		assertThat(details.asked).hasValue(0);
	}

	@Test
	void applicationSinkWinsOverTheConnectionDetails() {
		CountingDetails details = new CountingDetails();
		SinkTarget sink = new SinkTarget.CoreV1(new InMemoryEventSink());
		for (SinkMode mode : List.of(SinkMode.AUTO, SinkMode.KUBERNETES)) {
			assertThat(KubeEventsStatusResolver.resolve(mode, true, () -> sink, details))
				.isEqualTo(new KubeEventsStatus(mode, EffectiveSink.KUBERNETES, "EventSink bean", null, true, sink));
		}
		assertThat(details.asked).hasValue(0);
	}

	@Test
	void eventsV1SinkBeanWinsUnlessCoreV1IsConfigured() {
		InMemoryEventSink coreV1 = new InMemoryEventSink();
		EventsV1Sink eventsV1 = new EchoingEventsV1Sink();
		for (EventsApi api : List.of(EventsApi.AUTO, EventsApi.EVENTS_V1)) {
			assertThat(SinkTarget.applicationSink(coreV1, eventsV1, api)).isEqualTo(new SinkTarget.EventsV1(eventsV1));
		}
		assertThat(SinkTarget.applicationSink(coreV1, eventsV1, EventsApi.CORE_V1))
			.isEqualTo(new SinkTarget.CoreV1(coreV1));
		assertThat(SinkTarget.applicationSink(null, eventsV1, EventsApi.CORE_V1))
			.isEqualTo(new SinkTarget.EventsV1(eventsV1));
		assertThat(SinkTarget.applicationSink(null, null, EventsApi.AUTO)).isNull();
		assertThat(new SinkTarget.EventsV1(eventsV1).description()).isEqualTo("EventsV1Sink bean");
	}

	@Test
	void applicationConnectionDetailsAreWrittenToAndNamed() {
		CountingDetails details = new CountingDetails();
		KubeEventsStatus status = KubeEventsStatusResolver.resolve(SinkMode.AUTO, true, () -> null, details);
		assertThat(status).isEqualTo(new KubeEventsStatus(SinkMode.AUTO, EffectiveSink.KUBERNETES,
				"connection details: K3sContainer rancher/k3s:test", "http://details:1", true,
				new SinkTarget.Client(details.client)));
		assertThat(details.asked).hasValue(1);
	}

	@Test
	void connectionDetailsDescribeThemselvesByClassNameByDefault() {
		ApiClient client = client("http://details:1");
		KubeEventsConnectionDetails details = () -> client;
		assertThat(KubeEventsStatusResolver.resolve(SinkMode.KUBERNETES, true, () -> null, details).reason())
			.isEqualTo("connection details: " + details.getClass().getSimpleName());
	}

	@Test
	void detectedDetailsAreNamedByWhatWasFound() throws IOException {
		KubeEventsStatus status = KubeEventsStatusResolver.resolve(SinkMode.AUTO, true, () -> null,
				detected(Machines.inPod(this.tmp, false), false));
		assertThat(status.sink()).isEqualTo(EffectiveSink.KUBERNETES);
		assertThat(status.reason()).isEqualTo("in-cluster service account " + this.tmp.resolve("sa"));
		assertThat(status.apiServer()).isEqualTo("https://10.0.0.1:443");
		assertThat(status.target()).isInstanceOf(SinkTarget.Client.class);
	}

	@Test
	void autoOnADeveloperMachineOnlyLogsAndSaysWhy() throws IOException {
		KubeEventsStatus status = KubeEventsStatusResolver.resolve(SinkMode.AUTO, false, () -> null,
				detected(Machines.developerMachine(this.tmp), false));
		assertThat(status)
			.isEqualTo(new KubeEventsStatus(SinkMode.AUTO, EffectiveSink.LOG, NOT_IN_KUBERNETES, null, true, null));
	}

	@Test
	void kubernetesWithoutClusterFails() {
		KubernetesConfigDetector detector = Machines.noCluster(this.tmp);
		assertThatExceptionOfType(NoKubernetesClusterException.class)
			.isThrownBy(() -> KubeEventsStatusResolver.resolve(SinkMode.KUBERNETES, true, () -> null, detected(detector, true)))
			.withMessage("no Kubernetes configuration was found")
			.satisfies((ex) -> assertThat(ex.searched()).isEqualTo(detector.describeSearch(true)));
	}

	@Test
	void discardingSendsEventsNowhere() {
		KubeEventsStatus status = KubeEventsStatus.discarding("a test");
		assertThat(status).isEqualTo(new KubeEventsStatus(SinkMode.NONE, EffectiveSink.NONE, "a test", null, false,
				null));
		assertThat(status.describe()).isEqualTo("discarding events (a test)");
	}

	@Test
	void describesWritingToTheApiServer() {
		assertThat(new KubeEventsStatus(SinkMode.AUTO, EffectiveSink.KUBERNETES, "ApiClient bean",
				"https://10.0.0.1:443", false, new SinkTarget.CoreV1(new InMemoryEventSink()))
			.describe()).isEqualTo("writing Events to https://10.0.0.1:443 (ApiClient bean)");
	}

	@Test
	void describesWritingToAnUnknownServer() {
		assertThat(new KubeEventsStatus(SinkMode.AUTO, EffectiveSink.KUBERNETES, "EventSink bean", null, true,
				new SinkTarget.CoreV1(new InMemoryEventSink()))
			.describe()).isEqualTo("writing Events to the API server (EventSink bean), logging events");
	}

	@Test
	void describesLogging() {
		assertThat(new KubeEventsStatus(SinkMode.LOG, EffectiveSink.LOG, "kubeevents.sink.mode=log", null, true, null)
			.describe()).isEqualTo("not writing to a cluster (kubeevents.sink.mode=log), logging events");
	}

	@Test
	void describesDiscarding() {
		assertThat(new KubeEventsStatus(SinkMode.NONE, EffectiveSink.NONE, "kubeevents.sink.mode=none", null, false,
				null)
			.describe()).isEqualTo("discarding events (kubeevents.sink.mode=none)");
	}

	@Test
	void sinkIsRequiredExactlyWhenWriting() {
		assertThatIllegalArgumentException().isThrownBy(
				() -> new KubeEventsStatus(SinkMode.AUTO, EffectiveSink.KUBERNETES, "x", null, true, null));
		assertThatIllegalArgumentException().isThrownBy(() -> new KubeEventsStatus(SinkMode.LOG, EffectiveSink.LOG,
				"x", null, true, new SinkTarget.CoreV1(new InMemoryEventSink())));
	}

	@Test
	void effectiveSinkValuesAreLowerCase() {
		assertThat(EffectiveSink.values()).extracting(EffectiveSink::value).containsExactly("kubernetes", "log", "none");
	}

}
