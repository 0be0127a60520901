package io.github.kubeevents;

import java.time.Duration;
import java.util.Objects;
import java.util.function.DoubleSupplier;

import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.sink.SinkRequestListener;
import io.github.kubeevents.sink.Sleeper;
import org.jspecify.annotations.Nullable;

/**
 * What every sink of one broadcaster shares: the retry policy, the sleeper and jitter between attempts, the
 * request listener, the writer threads' number and queue size, the optional write budget, and whether shutdown has
 * cancelled the waiting.
 *
 * <p>Thread-safe.
 */
final class SinkSettings {

	private final RetryPolicy retryPolicy;

	private final Sleeper sleeper;

	private final DoubleSupplier jitter;

	private final SinkRequestListener requestListener;

	private final int writers;

	private final int writerQueueCapacity;

	private final @Nullable WriteBudget budget;

	private volatile boolean cancelled;

	SinkSettings(RetryPolicy retryPolicy, Sleeper sleeper, DoubleSupplier jitter, SinkRequestListener requestListener,
			int writers, int writerQueueCapacity, @Nullable WriteBudget budget) {
		this.retryPolicy = retryPolicy;
		this.sleeper = sleeper;
		this.jitter = jitter;
		this.requestListener = requestListener;
		this.writers = writers;
		this.writerQueueCapacity = writerQueueCapacity;
		this.budget = budget;
	}

	/**
	 * The settings a broadcaster's builder gives its sinks.
	 * @param builder the builder
	 * @return the settings; the sleeper is a new {@link Sleeper#cancellable()} unless the builder has one
	 */
	static SinkSettings of(EventBroadcasterBuilder builder) {
		return new SinkSettings(builder.retryPolicy,
				(builder.sleeper != null) ? builder.sleeper : Sleeper.cancellable(), builder.jitter,
				builder.requestListener, builder.sinkWriters, builder.writerQueueCapacity,
				(builder.writeBudgetQps > 0) ? new WriteBudget(builder.writeBudgetQps, builder.writeBudgetBurst,
						builder.clock) : null);
	}

	@Nullable WriteBudget budget() {
		return this.budget;
	}

	/**
	 * Waits, when a write budget is set, until the next request may be made. After shutdown began nothing waits
	 * (each pending write gets its one attempt at once).
	 */
	void awaitBudget() {
		if (this.budget == null || this.cancelled) {
			return;
		}
		Duration wait = this.budget.reserve();
		if (!wait.isZero()) {
			try {
				this.sleeper.sleep(wait);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	RetryPolicy retryPolicy() {
		return this.retryPolicy;
	}

	DoubleSupplier jitter() {
		return this.jitter;
	}

	SinkRequestListener requestListener() {
		return this.requestListener;
	}

	int writers() {
		return this.writers;
	}

	int writerQueueCapacity() {
		return this.writerQueueCapacity;
	}

	boolean isCancelled() {
		return this.cancelled;
	}

	/**
	 * Waits before a retry.
	 * @return {@code false} when shutdown cancelled the wait (or interrupted it): do not retry
	 */
	boolean sleepBeforeRetry(Duration delay) {
		if (!this.cancelled) {
			try {
				this.sleeper.sleep(delay);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return !this.cancelled;
	}

	/** Shutdown began: waits end, each later write gets one attempt. */
	void cancel() {
		this.cancelled = true;
		this.sleeper.cancel();
	}

	/** The key that keeps one object's writes on one writer thread: kind, namespace and name. */
	static Object shard(RecordedEvent event) {
		InvolvedObject object = event.regarding();
		return Objects.hash(object.kind(), object.namespace(), object.name());
	}

}
