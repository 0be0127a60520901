package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsApi;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.github.kubeevents.sink.RetryPolicy;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Test;

import static io.github.kubeevents.LincheckRuns.check;
import static io.github.kubeevents.LincheckRuns.race;

/**
 * The lifecycle of an {@link InlineSink} (a sink run on the distribution thread) under Lincheck's model checker:
 * whichever of {@link InlineSink#close()} and the end of a run comes second tells the sink {@code closed()}, exactly
 * once, and its final hooks ({@code beforeStop}, {@code stopped}) run once per run. See
 * {@link SubscriberQueueModelTests} for how the checker runs the scenarios.
 */
class InlineSinkModelTests {

	private static final Clock CLOCK = Clock.fixed(TestEvents.TIME, ZoneOffset.UTC);

	private static final SinkSettings SETTINGS = TestSinks.settings(RetryPolicy.defaults(), (duration) -> {
	}, (api, verb, result, duration) -> {
	}, CLOCK);

	private static final EventCounters COUNTERS = new EventCounters(CLOCK, Duration.ofHours(1));

	/** Never started: {@link InlineSink#close()} unsubscribes from it directly. */
	private static final Fanout FANOUT = new Fanout(16, COUNTERS);

	/**
	 * {@code close()} races the end of a run at the stop marker ({@code closeInput} on the distribution thread):
	 * the sink is told {@code closed()} once, after its final hooks.
	 */
	@Test
	void closingWhileTheRunEndsTellsTheSinkOnce() {
		Lincheck.runConcurrentTest(LincheckRuns.scenarioInvocations(), () -> {
			ModelSink sink = new ModelSink();
			InlineSink subscriber = new InlineSink("model", sink, COUNTERS, CLOCK, FANOUT::unsubscribe);
			subscriber.start();
			subscriber.offer(TestEvents.recorded("Started", "started", TestEvents.object("Pod", "web-0", "shop")));
			// the distribution thread at the stop marker, and the close
			race(() -> subscriber.closeInput(false), subscriber::close);
			awaitEnd(subscriber);
			check(sink.handled.get() == 1, "handled " + sink.handled.get());
			check(sink.beforeStop.get() == 1 && sink.stopped.get() == 1,
					"beforeStop " + sink.beforeStop.get() + ", stopped " + sink.stopped.get());
			check(sink.closed.get() == 1, "closed() called " + sink.closed.get() + " times");
		});
	}

	/**
	 * A start races a close (a recorder started while its subscription is closed): either the close wins and tells
	 * the sink, or the start wins and the end of its run does; never both, never neither.
	 */
	@Test
	void closingWhileNotRunningRacesAStart() {
		Lincheck.runConcurrentTest(LincheckRuns.scenarioInvocations(), () -> {
			ModelSink sink = new ModelSink();
			InlineSink subscriber = new InlineSink("model", sink, COUNTERS, CLOCK, FANOUT::unsubscribe);
			race(subscriber::start, subscriber::close);
			// the stop marker of the run, if one began
			subscriber.closeInput(false);
			awaitEnd(subscriber);
			check(sink.started.get() == sink.stopped.get(),
					"started " + sink.started.get() + ", stopped " + sink.stopped.get());
			check(sink.closed.get() == 1, "closed() called " + sink.closed.get() + " times");
		});
	}

	/**
	 * A shutdown comes while a stop's run still ends (or after it ended): what the stop kept for a next start is
	 * counted as lost once, by the ending thread or by the shutdown, whichever comes second.
	 */
	@Test
	void aShutdownWhileAStopEndsCountsWhatIsHeldOnce() {
		Lincheck.runConcurrentTest(LincheckRuns.scenarioInvocations(), () -> {
			ModelSink sink = new ModelSink();
			InlineSink subscriber = new InlineSink("model", sink, COUNTERS, CLOCK, FANOUT::unsubscribe);
			subscriber.start();
			// the stop marker: the run ends on the sink's ending thread, racing the shutdown's final distribution
			subscriber.closeInput(false);
			subscriber.closeInput(true);
			awaitEnd(subscriber);
			check(sink.stopped.get() == 1, "stopped " + sink.stopped.get());
			check(sink.held.get() == 1, "held counted " + sink.held.get() + " times");
		});
	}

	/** A close races the end of a stop's run: what is held is counted once, and the sink told closed() once. */
	@Test
	void aCloseWhileAStopEndsCountsWhatIsHeldOnce() {
		Lincheck.runConcurrentTest(LincheckRuns.scenarioInvocations(), () -> {
			ModelSink sink = new ModelSink();
			InlineSink subscriber = new InlineSink("model", sink, COUNTERS, CLOCK, FANOUT::unsubscribe);
			subscriber.start();
			subscriber.closeInput(false);
			subscriber.close();
			awaitEnd(subscriber);
			check(sink.held.get() == 1, "held counted " + sink.held.get() + " times");
			check(sink.closed.get() == 1, "closed() called " + sink.closed.get() + " times");
		});
	}

	/**
	 * Waits for the run's end, which runs on the sink's ending thread after the stop marker or a close while
	 * running; nothing to wait for when no run ended.
	 */
	private static void awaitEnd(InlineSink subscriber) {
		Thread ending = subscriber.endingThread();
		if (ending != null) {
			LincheckRuns.join(ending);
		}
	}

	/** A sink subscriber that writes nothing and starts no writer threads: it counts its hooks. */
	private static final class ModelSink extends SinkSubscriber {

		final AtomicInteger handled = new AtomicInteger();

		final AtomicInteger beforeStop = new AtomicInteger();

		final AtomicInteger stopped = new AtomicInteger();

		final AtomicInteger closed = new AtomicInteger();

		final AtomicInteger held = new AtomicInteger();

		/** The run whose start this sink counts: it starts no thread of its own. */
		final SinkRun<?, ?> run;

		final AtomicInteger started = new AtomicInteger();

		ModelSink() {
			super("model", new ApiChoice(EventsApi.CORE_V1, "configured"), COUNTERS, EventNaming.clientGo(), null);
			this.run = TestSinks.run(SETTINGS, new EventSink() {

				@Override
				public CoreV1Event create(CoreV1Event event) {
					throw new UnsupportedOperationException();
				}

				@Override
				public CoreV1Event patch(CoreV1Event event, CountPatch patch) {
					throw new UnsupportedOperationException();
				}

				@Override
				public void resume() {
					ModelSink.this.started.incrementAndGet();
				}

			}, new SinkWritersTests.NoTarget());
		}

		@Override
		public void onEvent(RecordedEvent event) {
			this.handled.incrementAndGet();
		}

		@Override
		void beforeStop(boolean shutdown) {
			this.beforeStop.incrementAndGet();
		}

		@Override
		void end(boolean shutdown) {
			this.stopped.incrementAndGet();
			if (shutdown) {
				countHeld();
			}
		}

		@Override
		void countHeld() {
			this.held.incrementAndGet();
		}

		@Override
		void closed() {
			this.closed.incrementAndGet();
		}

		@Override
		SinkRun<?, ?> current() {
			return this.run;
		}

		@Override
		RecorderSnapshot.SinkSnapshot snapshot(int limit, Predicate<RecorderSnapshot.ObjectRef> filter) {
			throw new UnsupportedOperationException();
		}

	}

}
