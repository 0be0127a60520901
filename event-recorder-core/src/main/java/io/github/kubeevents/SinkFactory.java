package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
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
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;

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
	SinkSubscriber coreV1(Sink<CoreV1Event, EventSink.CountPatch> sink) {
		return remember(new CoreV1SinkSubscriber(nextName(), sink, new ApiChoice(EventsApi.CORE_V1, "configured"),
				this.settings, this.counters, null, naming(sink.supportsGet()), ""));
	}

	/** An events.k8s.io/v1 sink subscriber with a series cache and, when enabled, a correlator of its own. */
	SinkSubscriber eventsV1(Sink<EventsV1Event, EventsV1Sink.SeriesPatch> sink) {
		return remember(new EventsV1SinkSubscriber(nextName(), sink,
				new ApiChoice(EventsApi.EVENTS_V1, "configured"), this.settings, this.counters,
				naming(sink.supportsGet()), null, null, ""));
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
	 * The naming of a client's sink: deterministic when asked for and the sink can read Events, in the namespaces
	 * where {@code access} finds that RBAC allows {@code get} ({@link EventNaming}).
	 */
	private EventNaming naming(EventsAccess access, boolean sinkCanRead) {
		return sinkCanRead ? EventNaming.of(this.settings.deterministicNames(), access) : naming(false);
	}

	/**
	 * The sink subscriber of the configured API for a client, with an {@link EventsAccess} probe asking
	 * SelfSubjectAccessReviews about every verb the mode needs ({@code get} too for deterministic names). For
	 * {@code auto} one discovery request decides, then the probe's answers for the startup namespace
	 * ({@link ApiFallback}); an events.k8s.io/v1 sink falls back to core/v1 when RBAC serves the latter better. The startup line gives the choice and the probe's answers; a verb missing on the API written
	 * is logged at WARN.
	 */
	SinkSubscriber forClient(EventsClient client) {
		Duration timeout = this.settings.requestTimeout();
		ApiChoice choice = ApiChoice.choose(this.settings.eventsApi(), client, timeout);
		Sink<CoreV1Event, EventSink.CountPatch> coreSink = client.coreV1Sink(timeout);
		Sink<EventsV1Event, EventsV1Sink.SeriesPatch> sink = client.eventsV1Sink(timeout);
		EventsAccess access = new EventsAccess(EventsAccess.review(client, timeout),
				EventsAccess.verbs(this.settings.deterministicNames()), this.settings.clock());
		return forAccess(choice, coreSink, sink, access,
				(api) -> naming(access, (api == EventsApi.CORE_V1) ? coreSink.supportsGet() : sink.supportsGet()),
				client.server());
	}

	/**
	 * {@link #forClient} after discovery, for any client's sinks and access review.
	 * @param namingFor the naming of a sink writing an API, asked once for the API written at start (after the
	 * startup check of {@code auto}); the naming is asked about the startup namespace at once, so a {@code get}
	 * RBAC refuses there is reported at startup
	 */
	SinkSubscriber forAccess(ApiChoice choice, Sink<CoreV1Event, EventSink.CountPatch> coreSink,
			Sink<EventsV1Event, EventsV1Sink.SeriesPatch> sink, EventsAccess access,
			Function<EventsApi, EventNaming> namingFor, String server) {
		String name = nextName();
		String namespace = this.accessCheckNamespace;
		if (choice.api() == EventsApi.EVENTS_V1 && this.settings.eventsApi() == EventsApi.AUTO
				&& this.settings.shape() == EventShape.READERS) {
			choice = readersChoice(choice, access);
		}
		if (choice.api() == EventsApi.CORE_V1) {
			EventsAccess.Check core = access.check(EventsApi.CORE_V1, namespace);
			access.report(choice, core, core.describe());
			return remember(new CoreV1SinkSubscriber(name, coreSink, choice, this.settings, this.counters, access,
					startupNaming(namingFor, EventsApi.CORE_V1, namespace), server));
		}
		if (this.settings.eventsApi() != EventsApi.AUTO) {
			EventsAccess.Check eventsV1 = access.check(EventsApi.EVENTS_V1, namespace);
			access.report(choice, eventsV1, eventsV1.describe());
			return remember(new EventsV1SinkSubscriber(name, sink, choice, this.settings, this.counters,
					startupNaming(namingFor, EventsApi.EVENTS_V1, namespace), null, access, server));
		}
		ApiFallback apiFallback = new ApiFallback(access);
		EventsAccess.Check[] checks = apiFallback.atStart(namespace);
		ApiChoice switched = apiFallback.switched();
		access.report((switched != null) ? switched : choice, (switched != null) ? checks[1] : checks[0],
				checks[0].describe() + "; " + checks[1].describe());
		// the core/v1 fallback shares the naming, which asks about the API each Event is written to
		EventNaming naming = startupNaming(namingFor,
				(switched != null) ? EventsApi.CORE_V1 : EventsApi.EVENTS_V1, namespace);
		CoreV1SinkSubscriber fallback = new CoreV1SinkSubscriber(name + "-core", coreSink,
				new ApiChoice(EventsApi.CORE_V1, "auto: fallback"), this.settings, this.counters, access, naming, server);
		return remember(new SwitchingSinkSubscriber(
				new EventsV1SinkSubscriber(name, sink, choice, this.settings, this.counters, naming, apiFallback, access,
						server),
				fallback, apiFallback, this.settings.backlogCapacity()));
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

	/** The naming of a sink writing {@code api}, asked about the startup namespace (a refused get is a WARN now). */
	private static EventNaming startupNaming(Function<EventsApi, EventNaming> namingFor, EventsApi api,
			String namespace) {
		EventNaming naming = namingFor.apply(api);
		naming.confirm(api, namespace);
		return naming;
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

	/**
	 * How the sinks whose subscription is open name their Events: {@value RecorderStats.Naming#FALLBACK} while any
	 * of them falls back in any namespace (others may still be named deterministically), else
	 * {@value RecorderStats.Naming#DETERMINISTIC}; the fallbacks so far, summed, and the latest reason.
	 */
	RecorderStats.Naming naming() {
		if (!this.settings.deterministicNames()) {
			return RecorderStats.Naming.CLIENT_GO_NAMES;
		}
		synchronized (this.lock) {
			long fallbacks = 0;
			boolean fallingBack = false;
			String reason = null;
			for (SinkSubscriber sink : this.sinks) {
				EventNaming naming = sink.naming();
				fallbacks += naming.fallbacks();
				fallingBack |= naming.fallingBack();
				if (naming.fallbackReason() != null) {
					reason = naming.fallbackReason();
				}
			}
			return new RecorderStats.Naming(
					fallingBack ? RecorderStats.Naming.FALLBACK : RecorderStats.Naming.DETERMINISTIC, true, fallbacks,
					reason);
		}
	}

	/**
	 * What health reads, over the run each open sink writes through now: failed attempts and refusals since each
	 * one's last written event (summed), the latest failure, and the latest written event.
	 */
	void health(RecorderStats.Builder stats) {
		long failed = 0;
		long refused = 0;
		RecorderStats.Failure lastFailure = null;
		Instant lastWritten = null;
		synchronized (this.lock) {
			for (SinkSubscriber sink : this.sinks) {
				WriteHealth.Reading health = sink.current().health().read();
				failed += health.failedInARow();
				refused += health.rejectedInARow();
				RecorderStats.Failure failure = health.lastFailure();
				lastFailure = (failure != null && (lastFailure == null || failure.at().isAfter(lastFailure.at())))
						? failure : lastFailure;
				Instant written = health.lastWritten();
				lastWritten = (written != null && (lastWritten == null || written.isAfter(lastWritten))) ? written
						: lastWritten;
			}
		}
		stats.failedInARow(failed).rejectedInARow(refused).lastFailure(lastFailure).lastWritten(lastWritten);
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
		// once its subscription is closed and its threads are done: keep its counts, forget the rest
		sink.whenClosed(() -> {
			synchronized (this.lock) {
				if (this.sinks.remove(sink)) {
					this.retired = this.retired.plus(sink.writes());
				}
			}
		});
		return sink;
	}

	private String nextName() {
		int n = this.count.incrementAndGet();
		return (n == 1) ? FIRST_SINK_SUBSCRIBER : FIRST_SINK_SUBSCRIBER + "-" + n;
	}

}
