package io.github.kubeevents;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stop that gives up on a subscriber thread ({@link SubscriberQueue#drainAbandoned()}) counts what is left in
 * its queue from the stopping thread. The queue's ring has room for one taker at a time, so that count must never
 * run beside the subscriber thread taking from it: a thread whose handler swallowed the abort's interrupt is back
 * at the queue, counting the rest itself. Every event is then either handled or counted as a {@code shutdown}
 * drop, exactly once, and the thread ends.
 */
class SubscriberQueueAbandonTests {

	private static final int ROUNDS = 300;

	private static final int EVENTS = 5_000;

	private static final long HANDLER_NANOS = 2_000;

	private final RecordedEvent event = new RecordedEvent(InvolvedObject.of("Pod", "v1", "shop", "web-0"), null,
			EventType.WARNING, "BackOff", null, "Back-off restarting", Map.of(), new EventSource("kubelet", "node-1"),
			TestEvents.TIME);

	@Test
	// two takers on the ring can spin for ever, deaf to interrupts: a separate thread lets the test fail instead
	@Timeout(value = 1, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
	void countingAnAbandonedQueueBesideItsThreadAccountsForEveryEventOnce() throws InterruptedException {
		// not started: this test's thread plays the distribution thread
		EventBroadcaster broadcaster = EventBroadcaster.builder().build();
		try {
			for (int round = 0; round < ROUNDS; round++) {
				AtomicLong handled = new AtomicLong();
				SubscriberQueue subscriber = (SubscriberQueue) broadcaster.subscribe("race-" + round, (recorded) -> {
					handled.incrementAndGet();
					// a slow handler (the abort finds the thread in it) that swallows interrupts, as many I/O
					// libraries do: the thread comes back to the queue and counts the rest itself
					long until = System.nanoTime() + HANDLER_NANOS;
					while (System.nanoTime() < until) {
						Thread.onSpinWait();
					}
					Thread.interrupted();
				}, Subscription.Options.defaults());
				long shutdownBefore = broadcaster.stats().dropped("shutdown");
				subscriber.start();
				for (int i = 0; i < EVENTS; i++) {
					subscriber.offer(this.event);
				}
				subscriber.closeInput(false);
				subscriber.abort();
				for (int spin = (round * 37) % 4096; spin > 0; spin--) {
					Thread.onSpinWait();
				}
				subscriber.drainAbandoned();
				assertThat(subscriber.join(System.nanoTime() + Duration.ofSeconds(10).toNanos()))
					.as("round %d: the thread ended", round)
					.isTrue();
				long shutdown = broadcaster.stats().dropped("shutdown") - shutdownBefore;
				assertThat(handled.get() + shutdown).as("round %d: handled %d + shutdown %d", round, handled.get(),
						shutdown)
					.isEqualTo(EVENTS);
			}
		}
		finally {
			broadcaster.shutdown(Duration.ofSeconds(10));
		}
	}

}
