package io.github.kubeevents;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.kubeevents.sink.EventSink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Closing a sink's subscription while its run ends (on the distribution thread) forgets the sink exactly once:
 * whichever of the two comes second retires it, so the broadcaster's bookkeeping ({@code SinkFactory}) ends up empty.
 */
class SubscriptionCloseRaceTests {

	private static final int ROUNDS = 10_000;

	@Test
	void closingWhileTheThreadEndsLeavesNoSinkBehind() throws InterruptedException {
		EventBroadcaster broadcaster = EventBroadcaster.builder().sinkWriters(1).build();
		try {
			for (int i = 0; i < ROUNDS; i++) {
				EndingSink sink = new EndingSink();
				InlineSink subscription = (InlineSink) broadcaster.startRecordingToSink(sink);
				subscription.start();
				// the end of a run at the stop marker, on the distribution thread
				Thread distributor = new Thread(() -> subscription.closeInput(false));
				distributor.start();
				// the distribution thread is in the sink's last steps once the sink is told it stopped: close around them
				while (!sink.stopped.get()) {
					Thread.onSpinWait();
				}
				for (int spin = i % 64; spin > 0; spin--) {
					Thread.onSpinWait();
				}
				subscription.close();
				distributor.join();
				assertThat(subscription.join(System.nanoTime() + Duration.ofSeconds(10).toNanos()))
					.as("round %d: threads ended", i)
					.isTrue();
			}
			assertThat(broadcaster.sinkCount()).as("sinks left after %d rounds", ROUNDS).isZero();
		}
		finally {
			broadcaster.shutdown(Duration.ofSeconds(10));
		}
	}

	/** A sink that writes nothing and tells when the end of its run has stopped it. */
	private static final class EndingSink implements EventSink {

		final AtomicBoolean stopped = new AtomicBoolean();

		@Override
		public CoreV1Event create(CoreV1Event event) {
			return event;
		}

		@Override
		public CoreV1Event patch(CoreV1Event event, CountPatch patch) {
			return event;
		}

		@Override
		public void stopped() {
			this.stopped.set(true);
		}

	}

}
