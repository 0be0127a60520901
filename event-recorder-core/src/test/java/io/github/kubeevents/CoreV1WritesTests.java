package io.github.kubeevents;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The core/v1 writer where RBAC refuses patch and the probe learns it only from a refused PATCH: the repeat becomes
 * an Event of its own, a fresh one (no resourceVersion of the Event it repeats, no series), under a generated name.
 */
class CoreV1WritesTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final TickingClock clock = TickingClock.fixed(TestEvents.TIME);

	private final EventCounters counters = new EventCounters(this.clock, Duration.ofSeconds(10));

	private final ScriptedSink sink = new ScriptedSink();

	private final List<String> reviews = new CopyOnWriteArrayList<>();

	private final EventsAccess access = new EventsAccess((group, verb, namespace) -> {
		this.reviews.add(group + " " + verb);
		return !"patch".equals(verb);
	}, EventsAccess.WRITE_VERBS, this.clock);

	private final CoreV1SinkSubscriber subscriber = new CoreV1SinkSubscriber("sink", this.sink,
			new ApiChoice(EventsApi.CORE_V1, "configured"),
			TestSinks.settings(RetryPolicy.defaults(), (duration) -> {
			}, (api, verb, result, duration) -> {
			}, this.clock), this.counters, this.access, EventNaming.clientGo());

	@AfterEach
	void stop() {
		this.subscriber.cancel();
		this.subscriber.stopped(false);
	}

	@Test
	void aRepeatWhosePatchIsRefusedWith403IsCreatedAsAFreshEventOfItsOwn() {
		this.subscriber.started();
		RecordedEvent occurrence = TestEvents.recorded("BackOff", "Back-off", TestEvents.object("Pod", "db-0", "ns"));
		this.subscriber.onEvent(occurrence);
		await().atMost(WAIT).until(() -> this.sink.calls().size() == 1);
		this.sink.failNext(EventSinkException.status(403, "Forbidden", "cannot patch events"));
		this.subscriber.onEvent(occurrence);
		await().atMost(WAIT).until(() -> this.sink.calls().size() == 3);
		assertThat(this.sink.calls()).extracting(ScriptedSink.Call::verb).containsExactly("create", "patch", "create");
		CoreV1Event own = this.sink.calls().get(2).event();
		assertThat(own.getMetadata().getName()).isEqualTo(occurrence.generateEventName());
		assertThat(own.getMetadata().getNamespace()).isEqualTo("ns");
		assertThat(own.getMetadata().getResourceVersion()).as("a CREATE carries no resourceVersion").isNull();
		assertThat(own.getMetadata().getUid()).isNull();
		assertThat(own.getMetadata().getCreationTimestamp()).isNull();
		assertThat(own.getCount()).isEqualTo(1);
		assertThat(own.getFirstTimestamp()).isEqualTo(own.getLastTimestamp());
		assertThat(own.getSeries()).isNull();
		assertThat(own.getMessage()).isEqualTo("Back-off");
		assertThat(this.reviews).as("asked once the PATCH was refused")
			.extracting((review) -> review.substring(review.lastIndexOf(' ') + 1))
			.containsExactly("create", "patch");
		assertThat(this.counters.writtenWithoutPatchCount()).isEqualTo(1);
		assertThat(this.counters.totalDropped()).isZero();
	}

}
