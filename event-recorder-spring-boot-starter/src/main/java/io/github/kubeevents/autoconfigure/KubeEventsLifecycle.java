package io.github.kubeevents.autoconfigure;

import java.time.Duration;
import java.util.Objects;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.status.SinkTarget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Starts and stops the {@link EventBroadcaster} with the application context.
 *
 * <p>The first {@link #start()} subscribes the resolved sink (if any) and the structured logger (if enabled), then
 * starts the broadcaster; events recorded before that wait in its bounded queue. {@link #stop()} stops the
 * broadcaster ({@link EventBroadcaster#stop(Duration)}): what was recorded before is written (with the final counts
 * of events.k8s.io/v1 series) within {@code kubeevents.shutdown-timeout}, and its threads end. A later
 * {@link #start()} starts it again with its subscriptions and caches, and writes what was recorded meanwhile: a
 * context that is stopped and started again (spring-test pausing a cached context, {@code stop()}/{@code start()}
 * of the context, a checkpoint and restore) loses nothing. Only closing the context is final: the broadcaster bean
 * is then shut down ({@link EventBroadcaster#close()}), with its final summary line.
 *
 * <p><b>Phase.</b> {@link #PHASE} is {@code SmartLifecycle.DEFAULT_PHASE - 4096}. Stop order is highest phase
 * first; Spring Boot drains in-flight web requests (graceful shutdown) at {@code DEFAULT_PHASE - 1024}
 * ({@code WebServerApplicationContext.GRACEFUL_SHUTDOWN_PHASE}) and stops the web server at
 * {@code DEFAULT_PHASE - 2048} ({@code START_STOP_LIFECYCLE_PHASE}); beans with the default phase (schedulers,
 * message listener containers) stop at {@code DEFAULT_PHASE}. A lower phase therefore makes the recorder stop
 * after all of them, so events recorded by the last requests and tasks are still written, and start before
 * them. The gap of 2048 below the web server leaves room for other infrastructure to order itself in between.
 * Each phase is bounded by {@code spring.lifecycle.timeout-per-shutdown-phase} (30 s by default): keep
 * {@code kubeevents.shutdown-timeout} (10 s) below it.
 *
 * <p>Thread-safe.
 */
final class KubeEventsLifecycle implements SmartLifecycle {

	/** The lifecycle phase: {@code SmartLifecycle.DEFAULT_PHASE - 4096}, below the web server's phases. */
	static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

	private static final Logger logger = LoggerFactory.getLogger(KubeEventsLifecycle.class);

	private final EventBroadcaster broadcaster;

	private final KubeEventsStatus status;

	private final EventSource source;

	private final Duration shutdownTimeout;

	private final Object monitor = new Object();

	private boolean running;

	/** Whether the sink and the logger were subscribed (once, at the first start). */
	private boolean subscribed;

	/**
	 * A lifecycle for {@code broadcaster}.
	 * @param broadcaster the broadcaster to start and shut down
	 * @param status the resolved sink and whether to log events
	 * @param source the reporting component and host, for the startup log line
	 * @param shutdownTimeout how long {@link #stop()} waits for queued events to be written (the broadcaster's own
	 * {@code close()}, which Spring calls when the context closes, then has little left to do)
	 */
	KubeEventsLifecycle(EventBroadcaster broadcaster, KubeEventsStatus status, EventSource source,
			Duration shutdownTimeout) {
		this.broadcaster = Objects.requireNonNull(broadcaster, "broadcaster");
		this.status = Objects.requireNonNull(status, "status");
		this.source = Objects.requireNonNull(source, "source");
		this.shutdownTimeout = Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
	}

	/**
	 * The first time, subscribes the sink and the logger; then starts the broadcaster. Does nothing while running;
	 * after {@link #stop()} starts it again (nothing after the broadcaster was shut down).
	 */
	@Override
	public void start() {
		boolean first;
		synchronized (this.monitor) {
			if (this.running) {
				return;
			}
			first = !this.subscribed;
			if (first) {
				SinkTarget target = this.status.target();
				if (target != null) {
					target.subscribe(this.broadcaster);
				}
				if (this.status.logEvents()) {
					this.broadcaster.startLogging();
				}
				this.subscribed = true;
			}
			this.broadcaster.start();
			this.running = true;
		}
		if (first) {
			logger.info("Recording Kubernetes events as component '{}' (host '{}'): {}", this.source.component(),
					this.source.host(), this.status.describe());
		}
		else {
			logger.info("Recording Kubernetes events again after a stop: {}", this.status.describe());
		}
	}

	/**
	 * Stops the broadcaster, waiting up to the shutdown timeout for what was recorded to be written; a later
	 * {@link #start()} starts it again.
	 */
	@Override
	public void stop() {
		synchronized (this.monitor) {
			if (!this.running) {
				return;
			}
			this.running = false;
			boolean drained = this.broadcaster.stop(this.shutdownTimeout);
			logger.debug("Kubernetes event recorder stopped (drained: {})", drained);
		}
	}

	/**
	 * Whether {@link #start()} ran and {@link #stop()} did not.
	 * @return {@code true} while running
	 */
	@Override
	public boolean isRunning() {
		synchronized (this.monitor) {
			return this.running;
		}
	}

	/**
	 * {@link #PHASE}.
	 * @return the phase
	 */
	@Override
	public int getPhase() {
		return PHASE;
	}

}
