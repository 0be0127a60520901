package io.github.kubeevents;

import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * The RBAC choice of {@code auto} once discovery chose events.k8s.io/v1: the identity may lack verbs there that
 * core/v1 grants (the RBAC most charts write: {@code events} in API group {@code ""}, often with {@code create}
 * alone). client-go's adapter then loses every event, or every repeat. Here the {@link EventsAccess} probe is asked,
 * verb by verb and for both APIs, at startup (for the recorder's own namespace) and after each refusal of
 * events.k8s.io/v1 (HTTP 403, for the refused event's namespace), and {@link #decide} says whether to switch to
 * core/v1 for good: when core/v1 serves the recorder better, i.e.
 * <ul>
 * <li>core/v1 allows {@code create} and {@code patch} and events.k8s.io/v1 does not allow both, or</li>
 * <li>core/v1 allows {@code create} and events.k8s.io/v1 does not, or</li>
 * <li>both allow {@code create} without {@code patch}: core/v1 then writes each repeat as an Event of its own at
 * once ({@code written_without_patch}), where events.k8s.io/v1 would hold repeats in a series it cannot patch.</li>
 * </ul>
 * A switch is logged once at WARN with the RBAC rule that would allow events.k8s.io/v1. A namespace where neither
 * API is better is remembered by the probe, so its refusals cost no further review; a review that fails (a
 * timeout, a 5xx) is asked again at the next refusal. An explicitly configured API never switches.
 *
 * <p>Thread-safe: writer threads report refusals concurrently; the switch happens once.
 */
final class ApiFallback {

	private static final Logger logger = RecorderLog.LOGGER;

	/** The RBAC rule that allows events.k8s.io/v1 Events, as a chart would write it. */
	static final String EVENTS_V1_RULE = "{apiGroups: [\"events.k8s.io\"], resources: [\"events\"], verbs: [\"create\", \"patch\"]}";

	/** What {@link #decide} concluded. */
	enum Decision {

		/** Keep writing events.k8s.io/v1. */
		KEEP,

		/** Write core/v1 from now on. */
		SWITCH,

		/** A review failed: ask again at the next refusal. */
		UNDECIDED

	}

	private final EventsAccess access;

	private volatile @Nullable ApiChoice switched;

	ApiFallback(EventsAccess access) {
		this.access = access;
	}

	/**
	 * Whether to switch from events.k8s.io/v1 to core/v1, given what each allows in one namespace.
	 * @return {@link Decision#UNDECIDED} only when an answer that matters is unknown
	 */
	static Decision decide(EventsAccess.Check eventsV1, EventsAccess.Check coreV1) {
		if (eventsV1.complete()) {
			return Decision.KEEP;
		}
		if (!coreV1.known() || !eventsV1.known()) {
			return Decision.UNDECIDED;
		}
		int core = coreV1.rank();
		int events = eventsV1.rank();
		return (core > events || (core == 1 && events == 1)) ? Decision.SWITCH : Decision.KEEP;
	}

	/**
	 * The startup check, for the recorder's own namespace: switches at once when core/v1 serves better there,
	 * without a line of its own (the startup report says which API is written, and why).
	 * @return the answers for events.k8s.io/v1 and core/v1 in it
	 */
	EventsAccess.Check[] atStart(String namespace) {
		EventsAccess.Check eventsV1 = this.access.check(EventsApi.EVENTS_V1, namespace);
		// a review that failed just now: the first refusal asks again, startup does not wait for another time limit
		EventsAccess.Check coreV1 = eventsV1.known() ? this.access.check(EventsApi.CORE_V1, namespace)
				: this.access.unasked(EventsApi.CORE_V1, namespace);
		if (decide(eventsV1, coreV1) == Decision.SWITCH) {
			switchNow(namespace, eventsV1, coreV1, "RBAC in namespace '" + namespace + "': " + eventsV1.describe(),
					false);
		}
		return new EventsAccess.Check[] { eventsV1, coreV1 };
	}

	/**
	 * A write of events.k8s.io/v1 was refused with 403: switch to core/v1 if it serves better.
	 * @param verb the refused request's verb ({@code create} or {@code patch})
	 * @return {@code true} when writing core/v1 from now on (switched now or before)
	 */
	boolean refused(RecordedEvent recorded, String verb, EventSinkException refusal) {
		if (this.switched != null) {
			return true;
		}
		String namespace = recorded.eventNamespace();
		synchronized (this) {
			if (this.switched != null) {
				return true;
			}
			EventsAccess.Check eventsV1 = this.access.recheck(EventsApi.EVENTS_V1, namespace, verb);
			EventsAccess.Check coreV1 = this.access.check(EventsApi.CORE_V1, namespace);
			Decision decision = decide(eventsV1, coreV1);
			if (decision == Decision.UNDECIDED) {
				return false;
			}
			if (decision == Decision.KEEP) {
				if (!eventsV1.withoutPatch()) {
					logger.warn("Kubernetes events in namespace '{}' are refused: events.k8s.io/v1 ({}; {}) and"
							+ " {}; grant create and patch on events", namespace, eventsV1.describe(),
							LogText.oneLine(refusal.getMessage()), coreV1.describe());
				}
				return false;
			}
			switchNow(namespace, eventsV1, coreV1, LogText.oneLine(refusal.getMessage()), true);
		}
		return true;
	}

	/**
	 * Whether events.k8s.io/v1 stays the API in {@code namespace} although it lacks {@code patch} (repeats are
	 * written as new Events there): it allows create without patch and core/v1 serves no better.
	 */
	boolean keepsWithoutPatch(String namespace) {
		if (this.switched != null) {
			return false;
		}
		EventsAccess.Check eventsV1 = this.access.check(EventsApi.EVENTS_V1, namespace);
		return eventsV1.withoutPatch()
				&& decide(eventsV1, this.access.check(EventsApi.CORE_V1, namespace)) == Decision.KEEP;
	}

	/**
	 * Switches to core/v1 for good (once). A switch at a refusal is one WARN: what RBAC refuses, the API written
	 * from now on, and the one grant that helps (core/v1's missing verb when it lacks one too, else the rule that
	 * would allow events.k8s.io/v1).
	 */
	private void switchNow(String namespace, EventsAccess.Check eventsV1, EventsAccess.Check coreV1, String why,
			boolean log) {
		synchronized (this) {
			if (this.switched != null) {
				return;
			}
			this.switched = new ApiChoice(EventsApi.CORE_V1, "auto: switched from events.k8s.io/v1, which RBAC refuses ("
					+ why + "); core/v1 " + (coreV1.complete() ? "allows create and patch"
							: "serves better (" + coreV1.describe() + ": each repeat is written as an Event of its own)"));
		}
		if (!log) {
			return;
		}
		String missing = String.join(", ", coreV1.missing());
		logger.atWarn()
			.setMessage(coreV1.complete()
					? "Writing core/v1 Kubernetes events from now on: RBAC in namespace '{}' refuses events.k8s.io/v1"
							+ " Events ({}; {}) and allows create and patch on core/v1 Events. To write events.k8s.io/v1"
							+ " Events, grant the rule {}, or configure core/v1 as the events API to choose it explicitly"
					: "Writing core/v1 Kubernetes events from now on: RBAC in namespace '{}' refuses events.k8s.io/v1"
							+ " Events ({}; {}) and " + missing + " on core/v1 Events ({}), which writes each repeat as"
							+ " an Event of its own (counted as written_without_patch). Grant the verb " + missing
							+ " on resource \"events\" in API group \"\" (core) to count repeats on one Event")
			.addArgument(namespace)
			.addArgument(eventsV1::describe)
			.addArgument(why)
			.addArgument(coreV1.complete() ? EVENTS_V1_RULE : coreV1.describe())
			.addKeyValue("eventsApi", EventsApi.CORE_V1.value())
			.log();
	}

	/** The choice after the switch, or {@code null} while events.k8s.io/v1 is written. */
	@Nullable ApiChoice switched() {
		return this.switched;
	}

}
