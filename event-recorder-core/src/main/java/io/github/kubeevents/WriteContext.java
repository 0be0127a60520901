package io.github.kubeevents;

import io.github.kubeevents.sink.EventSinkException;
import org.jspecify.annotations.Nullable;

/**
 * One write's requests across its attempts: the occurrence whose trace context they run in, the verb of the one
 * that failed last, and the name of a CREATE that failed after the server may have stored it. Not thread-safe:
 * one write's requests run on one thread, one after the other.
 */
final class WriteContext {

	private final @Nullable RecordedEvent traced;

	private @Nullable EventSinkException failure;

	private String failedVerb = "create";

	private @Nullable String lostCreate;

	WriteContext(@Nullable RecordedEvent traced) {
		this.traced = traced;
	}

	/** The occurrence whose trace context the requests run in, or {@code null}. */
	@Nullable RecordedEvent traced() {
		return this.traced;
	}

	/** A request of the write failed with {@code ex}. */
	void failed(EventSinkException ex, String verb) {
		this.failure = ex;
		this.failedVerb = verb;
	}

	/** A CREATE of {@code name} failed, and the server may have stored it (its answer may be what was lost). */
	void lostCreate(String name) {
		this.lostCreate = name;
	}

	/** Whether an earlier CREATE of {@code name} of this write failed after the server may have stored it. */
	boolean isLostCreate(@Nullable String name) {
		return name != null && name.equals(this.lostCreate);
	}

	/** The verb of the request that failed with {@code ex}; {@code create} for a failure no request threw. */
	String verbOf(EventSinkException ex) {
		return (ex == this.failure) ? this.failedVerb : "create";
	}

}
