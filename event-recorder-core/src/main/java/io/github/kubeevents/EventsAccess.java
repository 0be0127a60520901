package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import com.github.benmanes.caffeine.cache.Cache;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * What RBAC lets the recorder's identity do with Events, verb by verb, per events API and namespace: the one owner
 * of RBAC answers, behind the choice of {@code auto}, the startup report ({@link #report}), the
 * {@code written_without_patch} mode and deterministic names ({@link EventNaming} asks it whether {@code get} is
 * allowed in a namespace). Each question is one access review ({@link Review}: {@link #review(EventsClient,
 * Duration)}, a SelfSubjectAccessReview, for a client; a test plugs its own), asked per verb the recorder needs
 * ({@link #verbs(boolean)}: {@link #WRITE_VERBS}, and {@code get} when Events are named deterministically).
 * After a review that fails, the check's remaining verbs are unknown without being asked, so an unreachable server
 * costs one request time limit per check, not one per verb.
 *
 * <p>A complete answer (every verb allowed or refused) is remembered per API and namespace (bounded, 256 namespaces
 * per API) for {@link #ANSWER_TTL} of the broadcaster's clock; a verb whose review failed (a timeout, a 5xx) is
 * {@linkplain Check#unknown() unknown} and asked again at the next check. {@link #recheck} forgets a remembered
 * answer that a refusal of the server contradicts, so RBAC revoked after the first check is seen at once; RBAC
 * granted later is seen once the answer that refused it expired (a repeat then tries its PATCH again, a namespace
 * refused {@code get} is named deterministically again). {@code get} follows the same rule as the write verbs.
 *
 * <p>Thread-safe.
 */
final class EventsAccess {

	private static final Logger logger = RecorderLog.LOGGER;

	/** One access review: whether the identity may use {@code verb} on {@code events} of {@code apiGroup}. */
	@FunctionalInterface
	interface Review {

		/**
		 * @param apiGroup {@code ""} (core/v1) or {@code events.k8s.io}
		 * @param verb e.g. {@code create}
		 * @return the answer; {@code null} when it cannot be told now (the review failed)
		 */
		@Nullable Boolean allowed(String apiGroup, String verb, String namespace);

	}

	/** The verbs every write mode needs: CREATE of a first occurrence, PATCH of a repeat. */
	static final List<String> WRITE_VERBS = List.of("create", "patch");

	/** The verbs of a mode that also reads Events (deterministic names): {@link #WRITE_VERBS} and {@code get}. */
	static final List<String> READ_WRITE_VERBS = List.of("create", "patch", "get");

	/** The verbs a sink needs: {@link #READ_WRITE_VERBS} when it reads Events, else {@link #WRITE_VERBS}. */
	static List<String> verbs(boolean readsEvents) {
		return readsEvents ? READ_WRITE_VERBS : WRITE_VERBS;
	}

	/**
	 * The answers for one API in one namespace, verb by verb, in the order of the required verbs.
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

		/**
		 * Whether every write verb asked about is allowed ({@code get}, which only deterministic names need, is not
		 * part of it: naming falls back without it, writing does not).
		 */
		boolean complete() {
			return this.missing.stream().noneMatch(WRITE_VERBS::contains)
					&& this.unknown.stream().noneMatch(WRITE_VERBS::contains);
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

	/** The API and namespace pairs whose last {@link #answer} got no answer, kept {@link #ANSWER_TTL}. */
	private final Cache<String, Boolean> unanswered;

	/**
	 * The API and namespace pairs being asked about now, each with the lock its askers take: the sink's writers ask
	 * about a namespace once, not once each. Holds only the questions in flight.
	 */
	private final Map<String, Object> asking = new ConcurrentHashMap<>();

	/**
	 * @param verbs the verbs the write mode needs, e.g. {@link #WRITE_VERBS}
	 * @param clock the broadcaster's clock, which times out remembered answers
	 */
	EventsAccess(Review review, List<String> verbs, Clock clock) {
		this.coreV1 = Caches.expiring(256, ANSWER_TTL, clock);
		this.eventsV1 = Caches.expiring(256, ANSWER_TTL, clock);
		this.unanswered = Caches.expiring(256, ANSWER_TTL, clock);
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
	 * {@link #check}, for a question asked at every write of deterministic names, on the writer threads: a check that
	 * got no answer is not asked again for {@link #ANSWER_TTL} (every verb unknown meanwhile), so an unreachable
	 * server costs one request time limit per namespace and expiry, not one per event; writers that ask about the
	 * same namespace at once wait for one answer.
	 */
	Check answer(EventsApi api, String namespace) {
		Check known = cache(api).getIfPresent(namespace);
		if (known != null) {
			return known;
		}
		String key = api.value() + " " + namespace;
		Object lock = this.asking.computeIfAbsent(key, (k) -> new Object());
		synchronized (lock) {
			try {
				// another writer may have asked meanwhile: its answer, or its lack of one, holds
				known = cache(api).getIfPresent(namespace);
				if (known != null) {
					return known;
				}
				if (this.unanswered.getIfPresent(key) != null) {
					return unasked(api, namespace);
				}
				Check check = check(api, namespace);
				if (!check.known()) {
					this.unanswered.put(key, Boolean.TRUE);
				}
				return check;
			}
			finally {
				this.asking.remove(key, lock);
			}
		}
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

	/**
	 * The server refused a request that needs {@code verb} on {@code api} in {@code namespace} (HTTP 403): like
	 * {@link #recheck}, and when the answer still does not refuse the verb, the refusal is remembered as the answer
	 * (the server's word), for {@link #ANSWER_TTL} like any other, when the other verbs are known.
	 * @return the answer, which refuses {@code verb}
	 */
	Check refused(EventsApi api, String namespace, String verb) {
		Check check = recheck(api, namespace, verb);
		if (check.refuses(verb)) {
			return check;
		}
		List<String> missing = new ArrayList<>(check.missing());
		missing.add(verb);
		Check refused = new Check(api, namespace, check.allowed().stream().filter((v) -> !v.equals(verb)).toList(),
				missing, check.unknown().stream().filter((v) -> !v.equals(verb)).toList());
		if (refused.known() && !EVERY_NAMESPACE.equals(namespace)) {
			cache(api).put(namespace, refused);
		}
		return refused;
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
		List<RecorderStats.MissingAccess> result = missingAccess(EventsApi.CORE_V1);
		result.addAll(missingAccess(EventsApi.EVENTS_V1));
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

	/**
	 * The access review of a client ({@link EventsClient#eventsAllowed}: one SelfSubjectAccessReview, which every
	 * authenticated user may make); a review that fails is logged and answers {@code null}, so it is asked again.
	 * The namespace {@link #EVERY_NAMESPACE} asks about every namespace.
	 * @param timeout the time limit of each request; {@link Duration#ZERO} for the client's own
	 */
	static Review review(EventsClient client, Duration timeout) {
		return (apiGroup, verb, namespace) -> {
			try {
				return client.eventsAllowed(apiGroup, verb, namespace, timeout);
			}
			catch (EventSinkException | RuntimeException ex) {
				logger.warn("Could not ask whether {} on events in API group '{}' is allowed in namespace '{}': {}", verb,
						apiGroup, namespace, (ex instanceof EventSinkException) ? ex.getMessage() : ex.toString());
				return null;
			}
		};
	}

	/**
	 * The startup report: one INFO line with the API chosen and the answers ({@code described}), and one WARN
	 * naming the write verbs RBAC refuses on the API written ({@code written}), and what that costs. A refused
	 * {@code get} is reported by {@link EventNaming}, which falls back for it.
	 */
	void report(ApiChoice choice, Check written, String described) {
		logger.info("Writing Kubernetes events with the {} API ({}); RBAC in namespace '{}': {}", choice.api().value(),
				choice.reason(), written.namespace(), described);
		if (written.complete()) {
			return;
		}
		if (written.missing().stream().noneMatch(WRITE_VERBS::contains)) {
			// no answer is no refusal: RBAC advice for an unreachable server would send the reader the wrong way
			logger.atWarn()
				.setMessage("RBAC in namespace '{}' is unknown for {}: the access reviews got no answer (the warnings"
						+ " before say why; the API server may be unreachable). The recorder asks again after the first"
						+ " refusal")
				.addArgument(written.namespace())
				.addArgument(() -> written.api().value())
				.addKeyValue("eventsApi", written.api().value())
				.log();
			return;
		}
		String consequence;
		if (written.withoutPatch()) {
			consequence = "repeats of an event are written as new Events (counted as written_without_patch) instead"
					+ " of raising the count of one";
		}
		else if (written.refuses("create")) {
			consequence = "events are refused (counted as rejected_by_server)";
		}
		else {
			consequence = "the recorder asks again after the first refusal";
		}
		List<String> missing = written.missing().stream().filter(WRITE_VERBS::contains).toList();
		logger.atWarn()
			.setMessage("RBAC in namespace '{}' refuses {} on {} events, the API written ({}): {}. Grant the verb {} on {}")
			.addArgument(written.namespace())
			.addArgument(() -> String.join(", ", missing))
			.addArgument(() -> written.api().value())
			.addArgument(written::describe)
			.addArgument(consequence)
			.addArgument(() -> String.join(", ", missing))
			.addArgument(() -> (written.api() == EventsApi.EVENTS_V1)
					? "resource \"events\" in API group \"events.k8s.io\""
					: "resource \"events\" in API group \"\" (core)")
			.addKeyValue("eventsApi", written.api().value())
			.log();
	}

}
