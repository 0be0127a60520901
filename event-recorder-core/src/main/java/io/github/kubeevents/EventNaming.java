package io.github.kubeevents;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.github.kubeevents.sink.EventsApi;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * How one sink names its Events: client-go's names, or deterministic names ({@link DeterministicNames}) when the
 * mode was asked for and the sink can keep it up, so the mode never costs the events themselves.
 * <ul>
 * <li>A sink that cannot read (a custom sink whose {@code supportsGet()} is false, or one without an
 * {@link EventsAccess} whose read was refused) falls back to client-go's names for good: that is not RBAC.</li>
 * <li>A client's sink asks its {@link EventsAccess}, the one owner of RBAC answers, whether {@code get} is allowed
 * on the API's Events in the Event's namespace: while RBAC refuses it (the answer, or a read the server refused with
 * 403, remembered for {@link EventsAccess#ANSWER_TTL} like the write verbs), that namespace's Events get client-go's
 * names; once the answer expired and RBAC allows {@code get}, deterministic names resume there. The question is
 * asked on a writer thread ({@link #confirm}), never on the distribution thread, which only reads the answer
 * ({@link #deterministic}).</li>
 * </ul>
 * Each fallback (per API and namespace, until {@code get} is allowed again) logs one WARN naming why and is counted.
 *
 * <p>Thread-safe.
 */
final class EventNaming {

	private static final Logger logger = RecorderLog.LOGGER;

	private final boolean requested;

	private final @Nullable EventsAccess access;

	/** Why the sink fell back for good, or {@code null}; set once. */
	private final AtomicReference<String> permanent = new AtomicReference<>();

	/** The API and namespace pairs ({@code api namespace}) that fall back now because RBAC refuses {@code get}. */
	private final Set<String> refusedIn = ConcurrentHashMap.newKeySet();

	/** Why the latest fallback happened, or {@code null}. */
	private final AtomicReference<String> latest = new AtomicReference<>();

	private final AtomicLong fallbacks = new AtomicLong();

	private EventNaming(boolean requested, @Nullable EventsAccess access) {
		this.requested = requested;
		this.access = access;
	}

	/** client-go's names. */
	static EventNaming clientGo() {
		return new EventNaming(false, null);
	}

	/** Deterministic names, or client-go's when {@code requested} is false; a refused read falls back for good. */
	static EventNaming of(boolean requested) {
		return new EventNaming(requested, null);
	}

	/**
	 * Deterministic names where {@code access} allows {@code get}, or client-go's when {@code requested} is false.
	 * @param access the sink's RBAC answers, which must ask about {@code get} ({@link EventsAccess#verbs(boolean)})
	 */
	static EventNaming of(boolean requested, EventsAccess access) {
		return new EventNaming(requested, access);
	}

	boolean requested() {
		return this.requested;
	}

	/**
	 * Whether an Event of {@code api} in {@code namespace} is named deterministically now, on the distribution
	 * thread, without a question to the API server: the mode was asked for, the sink did not fall back for good, and
	 * RBAC is not known to refuse {@code get} there ({@link EventsAccess#known}). An unknown namespace is named
	 * deterministically; its first write asks ({@link #confirm}) and falls back if RBAC refuses.
	 */
	boolean deterministic(EventsApi api, @Nullable String namespace) {
		if (!this.requested || this.permanent.get() != null) {
			return false;
		}
		if (this.access == null || namespace == null) {
			return true;
		}
		EventsAccess.Check known = this.access.known(api, namespace);
		return known == null || decide(api, namespace, known);
	}

	/**
	 * Whether a write of an Event named deterministically may go on that way, on a writer thread: RBAC does not
	 * refuse {@code get} there ({@link EventsAccess#answer}: the remembered answer, else one review per verb, each
	 * with the request time limit; an unknown answer does not refuse). A change is logged: one WARN when a namespace
	 * starts falling back, one INFO when it resumes.
	 */
	boolean confirm(EventsApi api, @Nullable String namespace) {
		if (this.permanent.get() != null) {
			return false;
		}
		return this.access == null || namespace == null || decide(api, namespace, this.access.answer(api, namespace));
	}

	private boolean decide(EventsApi api, String namespace, EventsAccess.Check check) {
		if (check.refuses("get")) {
			refusedIn(api, namespace);
			return false;
		}
		if (check.allows("get") && this.refusedIn.remove(key(api, namespace))) {
			logger.info("Deterministic event names are on again for events ({}) in namespace '{}': RBAC allows the"
					+ " verb 'get'", api.value(), namespace);
		}
		return true;
	}

	/** Whether some Events are named with client-go's names now although the mode was asked for. */
	boolean fallingBack() {
		return this.requested && (this.permanent.get() != null || !this.refusedIn.isEmpty());
	}

	/** How many fallbacks there were: one for good, or one per namespace each time RBAC started refusing get. */
	long fallbacks() {
		return this.fallbacks.get();
	}

	@Nullable String fallbackReason() {
		return this.latest.get();
	}

	/**
	 * The server refused a read of {@code api}'s Events in {@code namespace} with 403: with an {@link EventsAccess},
	 * the refusal is its answer ({@link EventsAccess#refused}) and this namespace falls back until it expires and
	 * RBAC allows {@code get}; without one, the sink falls back for good.
	 */
	void readRefused(EventsApi api, String namespace) {
		if (this.access == null) {
			fallBack("RBAC does not allow the verb 'get' on events (" + api.value() + ") in namespace '" + namespace
					+ "', which the mode needs to continue an Event another process wrote");
			return;
		}
		this.access.refused(api, namespace, "get");
		refusedIn(api, namespace);
	}

	/**
	 * Falls back to client-go's names for good (the first call only; later ones do nothing).
	 * @param reason why, e.g. {@code "the sink cannot read Events (its supportsGet() is false)"}
	 * @return whether this call made the fallback
	 */
	boolean fallBack(String reason) {
		if (!this.requested || !this.permanent.compareAndSet(null, reason)) {
			return false;
		}
		warn(reason);
		return true;
	}

	private void refusedIn(EventsApi api, String namespace) {
		if (this.refusedIn.add(key(api, namespace))) {
			warn("RBAC does not allow the verb 'get' on events (" + api.value() + ") in namespace '" + namespace
					+ "', which the mode needs to continue an Event another process wrote; names are deterministic"
					+ " again there once RBAC allows it");
		}
	}

	private void warn(String reason) {
		this.fallbacks.incrementAndGet();
		this.latest.set(reason);
		logger.warn("Deterministic event names are off, using client-go's names (a restart or another replica starts"
				+ " a new Event): {}", reason);
	}

	private static String key(EventsApi api, String namespace) {
		return api.value() + " " + namespace;
	}

}
