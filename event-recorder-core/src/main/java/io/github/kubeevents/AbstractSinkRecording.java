package io.github.kubeevents;


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

	private final Runnable cancelSink;

	private final Runnable abortSink;

	/**
	 * @param cancelSink ends the sink's waits between Retry-After repeats
	 * @param abortSink cancels the sink's requests in flight
	 */
	AbstractSinkRecording(String name, ApiChoice choice, SinkSettings settings, Runnable cancelSink,
			Runnable abortSink) {
		this.choice = choice;
		this.settings = settings;
		this.writers = new SinkWriters(name, settings.writers(), settings.writerQueueCapacity());
		this.cancelSink = cancelSink;
		this.abortSink = abortSink;
	}

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
		this.cancelSink.run();
	}

	@Override
	public final void abort() {
		cancel();
		this.writers.abort();
		this.abortSink.run();
	}

	@Override
	public final ApiChoice choice() {
		return this.choice;
	}

}
