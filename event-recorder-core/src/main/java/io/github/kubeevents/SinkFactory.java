package io.github.kubeevents;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventShape;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.EventsV1Sink;
import org.slf4j.Logger;

/**
 * Builds a broadcaster's sink subscribers (client-go's {@code StartRecordingToSink} and, for a client,
 * {@code NewEventBroadcasterAdapter}): names them ({@code sink}, {@code sink-2}, ...), chooses the events API of a
 * client's sink (by discovery for {@code auto}, with the RBAC fallback to core/v1), and keeps the sinks whose
 * subscription is open; a sink whose subscription was closed leaves its final write counts behind and is forgotten
 * (with its caches and queues), so the broadcaster's write counters never go backwards and subscribing and closing
 * sinks does not grow the heap.
 *
 * <p>Thread-safe.
 */
final class SinkFactory {

	/** The subscriber name of the first sink ({@link EventBroadcaster#FIRST_SINK_SUBSCRIBER}). */
	static final String FIRST_SINK_SUBSCRIBER = "sink";

	private static final Logger logger = RecorderLog.LOGGER;

	private final SinkSettings settings;

	private final EventCounters counters;

	private final Object lock = new Object();

	/** Guarded by {@link #lock}. */
	private final List<SinkSubscriber> sinks = new ArrayList<>();

	/** What the forgotten sinks wrote; guarded by {@link #lock}. */
	private RecorderStats.Writes retired = RecorderStats.Writes.ZERO;

	private final AtomicInteger count = new AtomicInteger();

	private final String accessCheckNamespace;

	/**
	 * @param accessCheckNamespace the namespace whose RBAC a client's sink checks at startup
	 */
	SinkFactory(SinkSettings settings, EventCounters counters, String accessCheckNamespace) {
		this.settings = settings;
		this.counters = counters;
		this.accessCheckNamespace = accessCheckNamespace;
	}

	/** A core/v1 sink subscriber with a correlator of its own (two sinks never share caches). */
	SinkSubscriber coreV1(EventSink sink) {
		return remember(new CoreV1SinkSubscriber(nextName(), sink, new ApiChoice(EventsApi.CORE_V1, "configured"),
				this.settings, this.counters, null, naming(sink.supportsGet())));
	}

	/** An events.k8s.io/v1 sink subscriber with a series cache and, when enabled, a correlator of its own. */
	SinkSubscriber eventsV1(EventsV1Sink sink) {
		return remember(new EventsV1SinkSubscriber(nextName(), sink,
				new ApiChoice(EventsApi.EVENTS_V1, "configured"), this.settings, this.counters,
				naming(sink.supportsGet())));
	}

	/** The naming of a custom sink: deterministic when asked for and the sink can read Events. */
	private EventNaming naming(boolean sinkCanRead) {
		EventNaming naming = EventNaming.of(this.settings.deterministicNames());
		if (!sinkCanRead) {
			naming.fallBack("the sink cannot read Events (its supportsGet() is false)");
		}
		return naming;
	}

	/**
	 * The naming of a client's sink: deterministic when asked for and RBAC allows {@code get} on the API's Events
	 * in every namespace (one SelfSubjectAccessReview; when the review itself fails, the mode stays on and a
	 * refused read later falls back).
	 */
	private EventNaming naming(EventsClient client, EventsApi api, boolean sinkCanRead) {
		EventNaming naming = naming(sinkCanRead);
		if (naming.requested() && naming.fallbackReason() == null) {
			String group = (api == EventsApi.EVENTS_V1) ? "events.k8s.io" : "";
			Boolean allowed = ApiChoice.eventsAllowed(client, group, "get", null, this.settings.requestTimeout());
			if (Boolean.FALSE.equals(allowed)) {
				naming.fallBack("RBAC does not allow the verb 'get' on events (" + api.value()
						+ ") in every namespace, which the mode needs to continue an Event another process wrote");
			}
		}
		return naming;
	}

	/**
	 * The sink subscriber of the configured API for a client, with an {@link EventsAccess} probe asking
	 * SelfSubjectAccessReviews. For {@code auto} one discovery request decides, then the probe's answers for the
	 * startup namespace ({@link ApiFallback}); an events.k8s.io/v1 sink falls back to core/v1 when RBAC serves the
	 * latter better. The startup line gives the choice and the probe's answers; a verb missing on the API written
	 * is logged at WARN.
	 */
	SinkSubscriber forClient(EventsClient client) {
		Duration timeout = this.settings.requestTimeout();
		ApiChoice choice = ApiChoice.choose(this.settings.eventsApi(), client, timeout);
		EventSink coreSink = client.coreV1Sink(timeout);
		EventsV1Sink sink = client.eventsV1Sink(timeout);
		return forAccess(choice, coreSink, sink,
				new EventsAccess((group, verb, namespace) -> ApiChoice.eventsAllowed(client, group, verb, namespace,
						timeout), EventsAccess.WRITE_VERBS, this.settings.clock()),
				(api) -> naming(client, api, (api == EventsApi.CORE_V1) ? coreSink.supportsGet() : sink.supportsGet()));
	}

	/**
	 * {@link #forClient} after discovery, for any client's sinks and access review.
	 * @param namingFor the naming of a sink writing an API, asked once for the API written at start (after the
	 * startup check of {@code auto}, so a switch to core/v1 checks core/v1's {@code get})
	 */
	SinkSubscriber forAccess(ApiChoice choice, EventSink coreSink, EventsV1Sink sink, EventsAccess access,
			Function<EventsApi, EventNaming> namingFor) {
		String name = nextName();
		String namespace = this.accessCheckNamespace;
		if (choice.api() == EventsApi.EVENTS_V1 && this.settings.eventsApi() == EventsApi.AUTO
				&& this.settings.shape() == EventShape.READERS) {
			choice = readersChoice(choice, access);
		}
		if (choice.api() == EventsApi.CORE_V1) {
			EventsAccess.Check core = access.check(EventsApi.CORE_V1, namespace);
			logChoice(choice, namespace, core.describe());
			warnIfIncomplete(core, access.verbs());
			return remember(new CoreV1SinkSubscriber(name, coreSink, choice, this.settings, this.counters, access,
					namingFor.apply(EventsApi.CORE_V1)));
		}
		if (this.settings.eventsApi() != EventsApi.AUTO) {
			EventsAccess.Check eventsV1 = access.check(EventsApi.EVENTS_V1, namespace);
			logChoice(choice, namespace, eventsV1.describe());
			warnIfIncomplete(eventsV1, access.verbs());
			return remember(new EventsV1SinkSubscriber(name, sink, choice, this.settings, this.counters,
					namingFor.apply(EventsApi.EVENTS_V1), null, null, access));
		}
		ApiFallback apiFallback = new ApiFallback(access);
		EventsAccess.Check[] checks = apiFallback.atStart(namespace);
		ApiChoice switched = apiFallback.switched();
		logChoice((switched != null) ? switched : choice, namespace,
				checks[0].describe() + "; " + checks[1].describe());
		warnIfIncomplete((switched != null) ? checks[1] : checks[0], access.verbs());
		// the core/v1 fallback shares the naming, checked for the API written from the start
		EventNaming naming = namingFor.apply((switched != null) ? EventsApi.CORE_V1 : EventsApi.EVENTS_V1);
		CoreV1SinkSubscriber fallback = new CoreV1SinkSubscriber(name + "-core", coreSink,
				new ApiChoice(EventsApi.CORE_V1, "auto: fallback"), this.settings, this.counters, access, naming);
		return remember(new EventsV1SinkSubscriber(name, sink, choice, this.settings, this.counters, naming, fallback,
				apiFallback, access));
	}

	/**
	 * {@code auto} in the readers' shape, where discovery found events.k8s.io/v1: core/v1, the API whose writes
	 * every reader shows right, where RBAC allows it {@code create} and {@code patch} in every namespace (one review
	 * per verb for all namespaces: a Role in the recorder's own namespace alone would refuse Events about objects
	 * elsewhere, and core/v1 has no way back). Otherwise events.k8s.io/v1, whose sink still switches to core/v1 at
	 * startup or at a refusal when core/v1 serves better ({@link ApiFallback}).
	 */
	private static ApiChoice readersChoice(ApiChoice discovered, EventsAccess access) {
		EventsAccess.Check everywhere = access.check(EventsApi.CORE_V1, EventsAccess.EVERY_NAMESPACE);
		if (!everywhere.complete()) {
			return discovered;
		}
		return new ApiChoice(EventsApi.CORE_V1, "auto, readers' shape: core/v1 with a series on each repeat, which"
				+ " kubectl, the OpenTelemetry collector, Grafana Alloy, event exporters and events.k8s.io/v1 readers"
				+ " all show (the API server also serves events.k8s.io/v1; RBAC allows core/v1 create and patch in"
				+ " every namespace)");
	}

	private static void logChoice(ApiChoice choice, String namespace, String access) {
		logger.info("Writing Kubernetes events with the {} API ({}); RBAC in namespace '{}': {}", choice.api().value(),
				choice.reason(), namespace, access);
	}

	/** One WARN naming the verbs RBAC refuses on the API written, and what that costs. */
	private static void warnIfIncomplete(EventsAccess.Check check, List<String> verbs) {
		if (check.complete()) {
			return;
		}
		if (check.missing().isEmpty()) {
			// no answer is no refusal: RBAC advice for an unreachable server would send the reader the wrong way
			logger.atWarn()
				.setMessage("RBAC in namespace '{}' is unknown for {}: the access reviews got no answer (the warnings"
						+ " before say why; the API server may be unreachable). The recorder asks again after the first"
						+ " refusal")
				.addArgument(check.namespace())
				.addArgument(() -> check.api().value())
				.addKeyValue("eventsApi", check.api().value())
				.log();
			return;
		}
		String consequence;
		if (check.withoutPatch()) {
			consequence = "repeats of an event are written as new Events (counted as written_without_patch) instead"
					+ " of raising the count of one";
		}
		else if (check.refuses("create")) {
			consequence = "events are refused (counted as rejected_by_server)";
		}
		else {
			consequence = "the recorder asks again after the first refusal";
		}
		logger.atWarn()
			.setMessage("RBAC in namespace '{}': {} events: {}. Grant the verbs {} on {}")
			.addArgument(check.namespace())
			.addArgument(check::describe)
			.addArgument(consequence)
			.addArgument(verbs)
			.addArgument(() -> (check.api() == EventsApi.EVENTS_V1) ? "resource \"events\" in API group \"events.k8s.io\""
					: "resource \"events\" in API group \"\" (core)")
			.addKeyValue("eventsApi", check.api().value())
			.log();
	}

	/** The writes of every sink ever built, summed. */
	RecorderStats.Writes writes() {
		synchronized (this.lock) {
			RecorderStats.Writes total = this.retired;
			for (SinkSubscriber sink : this.sinks) {
				total = total.plus(sink.writes());
			}
			return total;
		}
	}

	/** The verbs RBAC refuses on the API each open sink writes now. */
	List<RecorderStats.MissingAccess> missingAccessNow() {
		synchronized (this.lock) {
			List<RecorderStats.MissingAccess> result = new ArrayList<>();
			for (SinkSubscriber sink : this.sinks) {
				result.addAll(sink.missingAccessNow());
			}
			return result;
		}
	}

	/** How the sinks whose subscription is open name their Events. */
	RecorderStats.Naming naming() {
		if (!this.settings.deterministicNames()) {
			return RecorderStats.Naming.CLIENT_GO_NAMES;
		}
		synchronized (this.lock) {
			long fallbacks = 0;
			String reason = null;
			for (SinkSubscriber sink : this.sinks) {
				String fallback = sink.naming().fallbackReason();
				if (fallback != null) {
					fallbacks++;
					reason = fallback;
				}
			}
			return new RecorderStats.Naming((fallbacks > 0) ? RecorderStats.Naming.FALLBACK : RecorderStats.Naming.DETERMINISTIC, true,
					fallbacks, reason);
		}
	}

	/** Refusals since the last written event, over every sink whose subscription is open. */
	long rejectedInARow() {
		synchronized (this.lock) {
			long total = 0;
			for (SinkSubscriber sink : this.sinks) {
				total += sink.rejectedInARow();
			}
			return total;
		}
	}

	/** How many sinks are kept (those whose subscription is open). */
	int size() {
		synchronized (this.lock) {
			return this.sinks.size();
		}
	}

	private SinkSubscriber remember(SinkSubscriber sink) {
		synchronized (this.lock) {
			this.sinks.add(sink);
		}
		sink.whenClosed(() -> retire(sink));
		return sink;
	}

	/** The sink's subscription was closed and its threads are done: keep its counts, forget the rest. */
	private void retire(SinkSubscriber sink) {
		synchronized (this.lock) {
			if (this.sinks.remove(sink)) {
				this.retired = this.retired.plus(sink.writes());
			}
		}
	}

	private String nextName() {
		int n = this.count.incrementAndGet();
		return (n == 1) ? FIRST_SINK_SUBSCRIBER : FIRST_SINK_SUBSCRIBER + "-" + n;
	}

}
