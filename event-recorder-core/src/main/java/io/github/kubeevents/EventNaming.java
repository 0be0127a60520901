package io.github.kubeevents;

import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;

/**
 * How one sink names its Events: client-go's names, or deterministic names ({@link DeterministicNames}) when the
 * mode was asked for, until the sink cannot keep it up (RBAC refuses {@code get} on Events, or a custom sink cannot
 * read): it then falls back to client-go's names for good, logs one WARN naming why (the missing verb), and counts
 * the fallback, so the mode never costs the events themselves.
 *
 * <p>Thread-safe.
 */
final class EventNaming {

	private static final Logger logger = RecorderLog.LOGGER;

	private final boolean requested;

	/** Why the sink fell back, or {@code null}; set once. */
	private final AtomicReference<String> fallback = new AtomicReference<>();

	private EventNaming(boolean requested) {
		this.requested = requested;
	}

	/** client-go's names. */
	static EventNaming clientGo() {
		return new EventNaming(false);
	}

	/** Deterministic names, or client-go's when {@code requested} is false. */
	static EventNaming of(boolean requested) {
		return new EventNaming(requested);
	}

	/** Whether the mode was asked for. */
	boolean requested() {
		return this.requested;
	}

	/** Whether Events are named deterministically now. */
	boolean deterministic() {
		return this.requested && this.fallback.get() == null;
	}

	/** Why the sink fell back to client-go's names, or {@code null}. */
	String fallbackReason() {
		return this.fallback.get();
	}

	/**
	 * Falls back to client-go's names for good (the first call only; later ones do nothing).
	 * @param reason why, naming the missing verb, e.g. {@code "RBAC does not allow get on events (core/v1) ..."}
	 * @return whether this call made the fallback
	 */
	boolean fallBack(String reason) {
		if (!this.requested || !this.fallback.compareAndSet(null, reason)) {
			return false;
		}
		logger.warn("Deterministic event names are off, using client-go's names (a restart or another replica starts"
				+ " a new Event): {}", reason);
		return true;
	}

}
