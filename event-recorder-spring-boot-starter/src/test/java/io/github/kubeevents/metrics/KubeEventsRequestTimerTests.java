package io.github.kubeevents.metrics;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubeEventsRequestTimer}.
 */
class KubeEventsRequestTimerTests {

	private final MeterRegistry registry = new SimpleMeterRegistry();

	private final KubeEventsRequestTimer timer = new KubeEventsRequestTimer(this.registry);

	@Test
	void timesEachRequestByApiVerbAndResult() {
		this.timer.requestCompleted("core/v1", "create", "success", Duration.ofMillis(20));
		this.timer.requestCompleted("core/v1", "create", "success", Duration.ofMillis(40));
		this.timer.requestCompleted("core/v1", "patch", "client_error", Duration.ofMillis(5));
		Timer created = this.registry.get("kubeevents.sink.requests")
			.tags("api", "core/v1", "verb", "create", "result", "success")
			.timer();
		assertThat(created.count()).isEqualTo(2);
		assertThat(created.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(60.0);
		assertThat(created.getId().getDescription()).isEqualTo("Requests of the event sinks to the API server");
		assertThat(this.registry.get("kubeevents.sink.requests")
			.tags("api", "core/v1", "verb", "patch", "result", "client_error")
			.timer()
			.count()).isOne();
		assertThat(this.registry.find("kubeevents.sink.requests").timers()).hasSize(2);
	}

}
