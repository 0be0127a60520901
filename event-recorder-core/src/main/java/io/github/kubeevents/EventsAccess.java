package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import com.github.benmanes.caffeine.cache.Cache;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventsApi;
import org.jspecify.annotations.Nullable;

/**
 * What RBAC lets the recorder's identity do with Events, verb by verb, per events API and namespace: the probe
 * behind the choice of {@code auto}, the startup line and the {@code written_without_patch} mode. Each question is
 * one access review ({@link Review}, a SelfSubjectAccessReview for the official client; another client plugs its
 * own), asked per verb the recorder needs ({@link #WRITE_VERBS} by default; a mode that reads adds {@code get}).
 * After a review that fails, the check's remaining verbs are unknown without being asked, so an unreachable server
 * costs one request time limit per check, not one per verb.
 *
 * <p>A complete answer (every verb allowed or refused) is remembered per API and namespace (bounded, 256 namespaces
 * per API) for {@link #ANSWER_TTL} of the broadcaster's clock; a verb whose review failed (a timeout, a 5xx) is
 * {@linkplain Check#unknown() unknown} and asked again at the next check. {@link #recheck} forgets a remembered
 * answer that a refusal of the server contradicts, so RBAC revoked after the first check is seen at once; RBAC
 * granted later is seen once the answer that refused it expired (a repeat then tries its PATCH again).
 *
 * <p>Thread-safe.
 */
final class EventsAccess {

	/** One access review: whether the identity may use {@code verb} on {@code events} of {@code apiGroup}. */
	@FunctionalInterface
	interface Review {

		/**
		 * @param apiGroup {@code ""} (core/v1) or {@code events.k8s.io}
		 * @param verb e.g. {@code create}
		 * @param namespace the namespace
		 * @return the answer; {@code null} when it cannot be told now (the review failed)
		 */
		@Nullable Boolean allowed(String apiGroup, String verb, String namespace);

	}

	/** The verbs every write mode needs: CREATE of a first occurrence, PATCH of a repeat. */
	static final List<String> WRITE_VERBS = List.of("create", "patch");

	/**
	 * The answers for one API in one namespace, verb by verb, in the order of the required verbs.
	 * @param api the API
	 * @param namespace the namespace
	 * @param allowed verbs allowed
	 * @param missing verbs refused
	 * @param unknown verbs whose review failed
	 */
	record Check(EventsApi api, String namespace, List<String> allowed, List<String> missing, List<String> unknown) {

		Check {
			allowed = List.copyOf(allowed);
			missing = List.copyOf(missing);
			unknown = List.copyOf(unknown);
		}

		/** Whether every verb is allowed. */
		boolean complete() {
			return this.missing.isEmpty() && this.unknown.isEmpty();
		}

		/** Whether every verb got an answer. */
		boolean known() {
			return this.unknown.isEmpty();
		}

		boolean allows(String verb) {
			return this.allowed.contains(verb);
		}

		boolean refuses(String verb) {
			return this.missing.contains(verb);
		}

		/** Writes create but not patch: repeats become new Events. */
		boolean withoutPatch() {
			return allows("create") && refuses("patch");
		}

		/** How well the API serves the recorder: 2 every verb, 1 create (repeats as new Events), 0 not even that. */
		int rank() {
			if (complete()) {
				return 2;
			}
			return allows("create") ? 1 : 0;
		}

		/** The missing verbs as {@link RecorderStats.MissingAccess}. */
		List<RecorderStats.MissingAccess> missingAccess() {
			List<RecorderStats.MissingAccess> result = new ArrayList<>();
			for (String verb : this.missing) {
				result.add(new RecorderStats.MissingAccess(this.api.value(), verb, this.namespace));
			}
			return result;
		}

		/** e.g. {@code "core/v1 allows create, refuses patch"}; unknown verbs as {@code "could not ask about get"}. */
		String describe() {
			List<String> parts = new ArrayList<>();
			if (!this.allowed.isEmpty()) {
				parts.add("allows " + String.join(", ", this.allowed));
			}
			if (!this.missing.isEmpty()) {
				parts.add("refuses " + String.join(", ", this.missing));
			}
			if (!this.unknown.isEmpty()) {
				parts.add("could not ask about " + String.join(", ", this.unknown));
			}
			return this.api.value() + " " + String.join(", ", parts);
		}

	}

	private final Review review;

	private final List<String> verbs;

	/**
	 * The namespace of a review for every namespace: a SelfSubjectAccessReview without a namespace asks about all
	 * of them (for a namespaced resource).
	 */
	static final String EVERY_NAMESPACE = "";

	/** How long an answer is remembered: 5 minutes. */
	static final Duration ANSWER_TTL = Duration.ofMinutes(5);

	private final Cache<String, Check> coreV1;

	private final Cache<String, Check> eventsV1;

	/**
	 * @param review one access review
	 * @param verbs the verbs the write mode needs, e.g. {@link #WRITE_VERBS}
	 * @param clock the broadcaster's clock, which times out remembered answers
	 */
	EventsAccess(Review review, List<String> verbs, Clock clock) {
		this.coreV1 = Caches.expiring(256, ANSWER_TTL, clock);
		this.eventsV1 = Caches.expiring(256, ANSWER_TTL, clock);
		this.review = Objects.requireNonNull(review, "review");
		this.verbs = List.copyOf(verbs);
		if (!this.verbs.contains("create")) {
			throw new IllegalArgumentException("every write mode needs create: " + verbs);
		}
	}

	/** The API group of an API's {@code events} resource. */
	static String group(EventsApi api) {
		return (api == EventsApi.EVENTS_V1) ? "events.k8s.io" : "";
	}

	/** The verbs checked. */
	List<String> verbs() {
		return this.verbs;
	}

	/**
	 * What the identity may do with {@code api}'s Events in {@code namespace}: the remembered answer, else one review
	 * per verb.
	 */
	Check check(EventsApi api, String namespace) {
		Cache<String, Check> cache = cache(api);
		Check known = cache.getIfPresent(namespace);
		if (known != null) {
			return known;
		}
		List<String> allowed = new ArrayList<>();
		List<String> missing = new ArrayList<>();
		List<String> unknown = new ArrayList<>();
		for (String verb : this.verbs) {
			// after a failed review the server is unlikely to answer the next one: do not wait for its time limit too
			Boolean answer = unknown.isEmpty() ? this.review.allowed(group(api), verb, namespace) : null;
			((answer == null) ? unknown : answer ? allowed : missing).add(verb);
		}
		Check check = new Check(api, namespace, allowed, missing, unknown);
		// every namespace is asked once, to choose the API: it is not where events are written, so it is not
		// remembered beside the namespaces' answers (missingAccess lists those)
		if (check.known() && !EVERY_NAMESPACE.equals(namespace)) {
			cache.put(namespace, check);
		}
		return check;
	}

	/**
	 * The server refused {@code verb} on {@code api} in {@code namespace} (HTTP 403): asks again when the remembered
	 * answer allowed it (RBAC changed since), else returns what is known.
	 */
	Check recheck(EventsApi api, String namespace, String verb) {
		Check known = cache(api).getIfPresent(namespace);
		if (known != null && known.allows(verb)) {
			cache(api).invalidate(namespace);
		}
		return check(api, namespace);
	}

	/** An answer with every verb unknown, without asking (the server did not answer another review just now). */
	Check unasked(EventsApi api, String namespace) {
		return new Check(api, namespace, List.of(), List.of(), this.verbs);
	}

	/** The remembered answer, without asking; {@code null} when none. */
	@Nullable Check known(EventsApi api, String namespace) {
		return cache(api).getIfPresent(namespace);
	}

	/** Every remembered answer that refuses a verb, both APIs, core/v1 first. */
	List<RecorderStats.MissingAccess> missingAccess() {
		List<RecorderStats.MissingAccess> result = new ArrayList<>();
		for (Check check : this.coreV1.asMap().values()) {
			result.addAll(check.missingAccess());
		}
		for (Check check : this.eventsV1.asMap().values()) {
			result.addAll(check.missingAccess());
		}
		return result;
	}

	/** The remembered verbs {@code api} refuses, over every namespace. */
	List<RecorderStats.MissingAccess> missingAccess(EventsApi api) {
		List<RecorderStats.MissingAccess> result = new ArrayList<>();
		for (Check check : cache(api).asMap().values()) {
			result.addAll(check.missingAccess());
		}
		return result;
	}

	private Cache<String, Check> cache(EventsApi api) {
		return (api == EventsApi.EVENTS_V1) ? this.eventsV1 : this.coreV1;
	}

}
