package io.github.kubeevents;

import java.util.function.Function;

import com.github.benmanes.caffeine.cache.Cache;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RBAC fallback of {@code auto}: discovery chose events.k8s.io/v1, but the identity may only write core/v1
 * Events (the RBAC most charts grant: {@code events} in API group {@code ""}). client-go's adapter then loses
 * every event; here, when a write of events.k8s.io/v1 is refused with HTTP 403, one SelfSubjectAccessReview asks
 * whether core/v1 Events may be created in that namespace, and if so the sink switches to core/v1 for good, with one
 * WARN naming the RBAC rule that would allow events.k8s.io/v1. A namespace where the review says core/v1 is refused
 * too is remembered (bounded), so its refusals cost no further review; a review that fails (a timeout, a 5xx) is
 * asked again at the next refusal. An explicitly configured API never switches.
 *
 * <p>Thread-safe: writer threads report refusals concurrently; the switch happens once.
 */
final class ApiFallback {

	private static final Logger logger = LoggerFactory.getLogger(EventBroadcaster.class);

	/** The RBAC rule that allows events.k8s.io/v1 Events, as a chart would write it. */
	static final String EVENTS_V1_RULE = "{apiGroups: [\"events.k8s.io\"], resources: [\"events\"], verbs: [\"create\", \"patch\"]}";

	private final Function<String, @Nullable Boolean> coreV1Allowed;

	private final Cache<String, Boolean> refusedNamespaces = Caches.bounded(256);

	private volatile @Nullable ApiChoice switched;

	/**
	 * @param coreV1Allowed whether core/v1 Events may be created in a namespace (a SelfSubjectAccessReview);
	 * {@code null} when that cannot be told now
	 */
	ApiFallback(Function<String, @Nullable Boolean> coreV1Allowed) {
		this.coreV1Allowed = coreV1Allowed;
	}

	/**
	 * A write of events.k8s.io/v1 was refused with 403: switch to core/v1 if it is allowed.
	 * @param recorded the refused write's event
	 * @param refusal the server's answer
	 * @return {@code true} when writing core/v1 from now on (switched now or before)
	 */
	boolean refused(RecordedEvent recorded, EventSinkException refusal) {
		if (this.switched != null) {
			return true;
		}
		String namespace = recorded.eventNamespace();
		if (this.refusedNamespaces.getIfPresent(namespace) != null) {
			return false;
		}
		synchronized (this) {
			if (this.switched != null) {
				return true;
			}
			Boolean allowed = this.coreV1Allowed.apply(namespace);
			if (allowed == null) {
				return false;
			}
			if (!allowed) {
				this.refusedNamespaces.put(namespace, Boolean.TRUE);
				logger.warn("Kubernetes events in namespace '{}' are refused by both APIs: events.k8s.io/v1 ({}) and"
						+ " core/v1 (the access review says no); grant create and patch on events", namespace,
						refusal.getMessage());
				return false;
			}
			this.switched = new ApiChoice(EventsApi.CORE_V1, "auto: switched from events.k8s.io/v1, which RBAC refuses ("
					+ refusal.getMessage() + "); core/v1 Events are allowed");
		}
		logger.atWarn()
			.setMessage("Writing core/v1 Kubernetes events from now on: events.k8s.io/v1 Events are refused ({})"
					+ " while core/v1 Events are allowed in namespace '{}'. To write events.k8s.io/v1 Events, grant"
					+ " the rule {}, or configure core/v1 as the events API to choose it explicitly")
			.addArgument(refusal::getMessage)
			.addArgument(namespace)
			.addArgument(EVENTS_V1_RULE)
			.addKeyValue("eventsApi", EventsApi.CORE_V1.value())
			.log();
		return true;
	}

	/** The choice after the switch, or {@code null} while events.k8s.io/v1 is written. */
	@Nullable ApiChoice switched() {
		return this.switched;
	}

}
