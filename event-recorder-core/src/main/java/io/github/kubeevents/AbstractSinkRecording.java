package io.github.kubeevents;

import io.github.kubeevents.sink.ApiChoice;

/**
 * What the sink subscribers of both events APIs share: the API choice, the sink settings, and the writer threads
 * whose lifecycle follows the subscriber's (started with it, closed when its queue is done, aborted at the
 * shutdown deadline).
 *
 * <p>Thread-safe.
 */
abstract class AbstractSinkRecording implements SinkRecording {

	protected final ApiChoice choice;

	protected final SinkSettings settings;

	protected final SinkWriters writers;

	AbstractSinkRecording(String name, ApiChoice choice, SinkSettings settings) {
		this.choice = choice;
		this.settings = settings;
		this.writers = new SinkWriters(name, settings.writers(), settings.writerQueueCapacity());
	}

	/** Ends the sink's waits between Retry-After repeats. */
	protected abstract void cancelSink();

	/** Cancels the sink's requests in flight. */
	protected abstract void abortSink();

	@Override
	public final SinkWriters writers() {
		return this.writers;
	}

	@Override
	public final void started() {
		this.writers.start();
	}

	@Override
	public final void stopped() {
		this.writers.closeAndJoin();
	}

	@Override
	public final boolean awaitTermination(long deadlineNanos) {
		return this.writers.join(deadlineNanos);
	}

	/** Stops retrying: a sleep in progress ends, and each later event gets one attempt only. Idempotent. */
	@Override
	public final void cancel() {
		this.settings.cancel();
		cancelSink();
	}

	@Override
	public final void abort() {
		cancel();
		this.writers.abort();
		abortSink();
	}

	@Override
	public final ApiChoice choice() {
		return this.choice;
	}

}
