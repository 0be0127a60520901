package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Level;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.RetryPolicy;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The lifecycle of one sink's run ({@link SinkRun}): the two facts of a stop it alone holds, and the {@code Sink}
 * SPI's hooks it calls, each once per step: {@code resume} at every start, {@code cancel} when a stop begins,
 * {@code abort} at the deadline, {@code stopped} once the writers ended.
 */
class SinkRunTests {

	/** The SPI hooks the run called, in order. */
	private final List<String> hooks = new CopyOnWriteArrayList<>();

	/** What the sink's CREATE throws; {@code null} to answer. */
	private volatile Throwable thrown;

	/** What the sink's hooks throw after recording their call; {@code null} for nothing. */
	private volatile Throwable hooksThrow;

	private final SinkRun<CoreV1Event, EventSink.CountPatch> run = TestSinks.run(
			TestSinks.settings(RetryPolicy.defaults(), (duration) -> {
			}, (api, verb, result, duration) -> {
			}, TickingClock.fixed(Instant.parse("2026-12-07T12:00:00Z"))),
			new EventSink() {

				@Override
				public CoreV1Event create(CoreV1Event event) {
					if (SinkRunTests.this.thrown instanceof Error error) {
						throw error;
					}
					return event;
				}

				@Override
				public CoreV1Event patch(CoreV1Event event, CountPatch patch) {
					return event;
				}

				@Override
				public void cancel() {
					hook("cancel");
				}

				@Override
				public void abort() {
					hook("abort");
				}

				@Override
				public void resume() {
					hook("resume");
				}

				@Override
				public void stopped() {
					hook("stopped");
				}

			}, new SinkWritersTests.NoTarget());

	/** Records a hook's call, and throws if asked to. */
	private void hook(String name) {
		this.hooks.add(name);
		if (this.hooksThrow instanceof Error error) {
			throw error;
		}
		if (this.hooksThrow != null) {
			throw new IllegalStateException(name + " broke");
		}
	}

	/** A start, a stop past its deadline, and the next start: each fact of the run as it should be. */
	private void abortedThenStartedAgain() {
		this.run.start();
		assertThat(this.run.stopping()).isFalse();
		this.run.abort();
		assertThat(this.run.stopping()).isTrue();
		assertThat(this.run.aborted()).isTrue();
		this.run.end();
		assertThat(this.run.join(System.nanoTime() + Duration.ofSeconds(5).toNanos())).isTrue();
		this.run.start();
		assertThat(this.run.stopping()).isFalse();
		assertThat(this.run.aborted()).as("a start lifts the abort").isFalse();
	}

	@Test
	void aStopAndAStopPastItsDeadlineAreTheRunsFactsAndItsSinksHooksUntilTheNextStart() {
		assertThat(this.run.stopping()).isFalse();
		this.run.start();
		this.run.cancel();
		assertThat(this.run.stopping()).isTrue();
		assertThat(this.run.aborted()).isFalse();
		this.run.end();
		assertThat(this.hooks).containsExactly("resume", "cancel", "stopped");

		abortedThenStartedAgain();
		assertThat(this.hooks).containsExactly("resume", "cancel", "stopped", "resume", "cancel", "abort", "stopped",
				"resume");
	}

	/**
	 * The JVM's own failures pass through the request gate; anything else a sink throws fails the request as an
	 * unexpected response, whose CREATE the server may have stored.
	 */
	@Test
	void aSinkThatThrowsFailsTheRequestUnlessTheJvmItselfFailed() {
		this.run.start();
		CoreV1Event event = TestEvents.event("BackOff", "m", TestEvents.ref("Pod", "web-0", "shop"));
		event.getMetadata().setName("web-0.1");
		OutOfMemoryError fatal = new OutOfMemoryError("test");
		this.thrown = fatal;
		assertThatThrownBy(() -> this.run.requests().create(new WriteContext(null), event)).isSameAs(fatal);
		this.thrown = new NoClassDefFoundError("broken/Sink");
		WriteContext context = new WriteContext(null);
		assertThatThrownBy(() -> this.run.requests().create(context, event)).isInstanceOfSatisfying(
				EventSinkException.class, (ex) -> {
					assertThat(ex.kind()).isEqualTo(EventSinkException.Kind.UNEXPECTED_RESPONSE);
					assertThat(ex.getMessage()).isEqualTo("The sink threw java.lang.NoClassDefFoundError: broken/Sink");
				});
		assertThat(context.isLostCreate("web-0.1")).isTrue();
		assertThat(context.isLostCreate("web-0.2")).isFalse();
		this.run.cancel();
		this.run.end();
	}

	/**
	 * A sink whose hooks throw breaks the SPI's contract: each failure is logged, and the run's own steps (its stop
	 * facts, its writer threads) go on.
	 */
	@Test
	void aSinkWhoseHooksThrowLeavesTheRunsStepsWhole() {
		this.hooksThrow = new IllegalStateException();
		try (LogCapture log = LogCapture.of(SinkRun.class, Level.ERROR)) {
			abortedThenStartedAgain();
			assertThat(this.hooks).containsExactly("resume", "cancel", "abort", "stopped", "resume");
			assertThat(log.messages(Level.ERROR)).containsExactly(
					"The resume() of event sink 'test' failed (the recorder goes on)",
					"The cancel() of event sink 'test' failed (the recorder goes on)",
					"The abort() of event sink 'test' failed (the recorder goes on)",
					"The stopped() of event sink 'test' failed (the recorder goes on)",
					"The resume() of event sink 'test' failed (the recorder goes on)");
		}
		OutOfMemoryError fatal = new OutOfMemoryError("test");
		this.hooksThrow = fatal;
		assertThatThrownBy(this.run::cancel).as("the JVM's own failure passes").isSameAs(fatal);
	}

}
