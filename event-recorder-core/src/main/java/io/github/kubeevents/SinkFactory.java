package io.github.kubeevents;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeevents.introspect.NamingStatus;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsV1Sink;
import io.kubernetes.client.openapi.ApiClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

	private static final Logger logger = LoggerFactory.getLogger(EventBroadcaster.class);

	private final SinkSettings settings;

	private final EventCounters counters;

	private final Object lock = new Object();

	/** Guarded by {@link #lock}. */
	private final List<SinkSubscriber> sinks = new ArrayList<>();

	/** What the forgotten sinks wrote; guarded by {@link #lock}. */
	private RecorderStats.Writes retired = RecorderStats.Writes.ZERO;

	private final AtomicInteger count = new AtomicInteger();

	SinkFactory(SinkSettings settings, EventCounters counters) {
		this.settings = settings;
		this.counters = counters;
	}

	/** A core/v1 sink subscriber with a correlator of its own (two sinks never share caches). */
	SinkSubscriber coreV1(EventSink sink) {
		return remember(new CoreV1SinkSubscriber(nextName(), sink, new ApiChoice(EventsApi.CORE_V1, "configured"),
				this.settings, this.counters, naming(sink.supportsGet())));
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
	private EventNaming naming(ApiClient client, EventsApi api) {
		EventNaming naming = EventNaming.of(this.settings.deterministicNames());
		if (naming.requested()) {
			String group = (api == EventsApi.EVENTS_V1) ? "events.k8s.io" : "";
			Boolean allowed = AccessReview.eventsAllowed(client, group, "get", null, this.settings.requestTimeout());
			if (Boolean.FALSE.equals(allowed)) {
				naming.fallBack("RBAC does not allow the verb 'get' on events (" + api.value()
						+ ") in every namespace, which the mode needs to continue an Event another process wrote");
			}
		}
		return naming;
	}

	/**
	 * The sink subscriber of the configured API for a client; for {@code auto} one discovery request decides, and
	 * an events.k8s.io/v1 sink falls back to core/v1 when RBAC refuses the former and allows the latter.
	 */
	SinkSubscriber forClient(ApiClient client) {
		ApiChoice choice = ApiChoice.choose(this.settings.eventsApi(), client, this.settings.requestTimeout());
		logger.info("Writing Kubernetes events with the {} API ({})", choice.api().value(), choice.reason());
		String name = nextName();
		EventNaming naming = naming(client, choice.api());
		CoreV1EventSink coreSink = new CoreV1EventSink(client, this.settings.requestTimeout());
		if (choice.api() == EventsApi.CORE_V1) {
			return remember(new CoreV1SinkSubscriber(name, coreSink, choice, this.settings, this.counters, naming));
		}
		EventsV1EventSink sink = new EventsV1EventSink(client, this.settings.requestTimeout());
		if (this.settings.eventsApi() != EventsApi.AUTO) {
			return remember(new EventsV1SinkSubscriber(name, sink, choice, this.settings, this.counters, naming));
		}
		// the core/v1 fallback shares the naming: deterministic names asked for stay asked for after a switch
		CoreV1SinkSubscriber fallback = new CoreV1SinkSubscriber(name + "-core", coreSink,
				new ApiChoice(EventsApi.CORE_V1, "auto: fallback"), this.settings, this.counters, naming);
		ApiFallback apiFallback = new ApiFallback(
				(namespace) -> ApiChoice.coreV1EventsAllowed(client, namespace, this.settings.requestTimeout()));
		return remember(new EventsV1SinkSubscriber(name, sink, choice, this.settings, this.counters, naming,
				fallback, apiFallback));
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

	/** How the sinks whose subscription is open name their Events. */
	NamingStatus naming() {
		if (!this.settings.deterministicNames()) {
			return NamingStatus.CLIENT_GO_NAMES;
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
			return new NamingStatus((fallbacks > 0) ? NamingStatus.FALLBACK : NamingStatus.DETERMINISTIC, true,
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
		return (n == 1) ? EventBroadcaster.FIRST_SINK_SUBSCRIBER : EventBroadcaster.FIRST_SINK_SUBSCRIBER + "-" + n;
	}

}
