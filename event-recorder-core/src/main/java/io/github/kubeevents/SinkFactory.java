package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeevents.introspect.SinkStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsV1Sink;
import io.kubernetes.client.openapi.ApiClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a broadcaster's sink subscribers, names them ({@code sink}, {@code sink-2}, ...) and keeps every one
 * ever built, so their counters never go backwards.
 *
 * <p>Thread-safe.
 */
final class SinkFactory {

	/** A sink subscriber and its subscription name. */
	record Named(String name, SinkRecording recording) {
	}

	private static final Logger logger = LoggerFactory.getLogger(EventBroadcaster.class);

	private final CorrelatorOptions correlatorOptions;

	private final CorrelatorOptions eventsV1CorrelatorOptions;

	private final EventsApi eventsApi;

	private final Duration requestTimeout;

	private final int seriesCacheSize;

	private final Clock clock;

	private final SinkSettings settings;

	private final EventCounters counters;

	private final List<SinkRecording> sinks = new CopyOnWriteArrayList<>();

	private final AtomicInteger count = new AtomicInteger();

	SinkFactory(EventBroadcasterBuilder builder, SinkSettings settings, EventCounters counters) {
		this.correlatorOptions = builder.correlatorOptions.withDefaultClock(builder.clock);
		this.eventsV1CorrelatorOptions = builder.eventsV1CorrelatorOptions.withDefaultClock(builder.clock);
		this.eventsApi = builder.eventsApi;
		this.requestTimeout = builder.requestTimeout;
		this.seriesCacheSize = builder.seriesCacheSize;
		this.clock = builder.clock;
		this.settings = settings;
		this.counters = counters;
	}

	/** A core/v1 sink subscriber with a correlator of its own. */
	Named coreV1(EventSink sink, ApiChoice choice) {
		String name = nextName();
		return remember(name, new CoreV1Recording(name, sink, choice, new EventCorrelator(this.correlatorOptions),
				this.settings, this.counters));
	}

	/** An events.k8s.io/v1 sink subscriber with a series cache and, when enabled, a correlator of its own. */
	Named eventsV1(EventsV1Sink sink, ApiChoice choice) {
		String name = nextName();
		CorrelatorOptions options = this.eventsV1CorrelatorOptions;
		EventCorrelator correlator = (options.aggregationEnabled() || options.spamFilterEnabled())
				? new EventCorrelator(options) : null;
		return remember(name, new EventsV1Recording(name, sink, choice, this.seriesCacheSize, correlator,
				this.settings, this.counters, this.clock));
	}

	/** The sink subscriber of the configured API for a client, choosing by discovery for {@code auto}. */
	Named forClient(ApiClient client) {
		ApiChoice choice = ApiChoice.choose(this.eventsApi, client, this.requestTimeout);
		logger.info("Writing Kubernetes events with the {} API ({})", choice.api().value(), choice.reason());
		if (choice.api() == EventsApi.EVENTS_V1) {
			return eventsV1(new EventsV1EventSink(client, Sleeper.cancellable(), this.requestTimeout), choice);
		}
		return coreV1(new CoreV1EventSink(client, Sleeper.cancellable(), this.requestTimeout), choice);
	}

	/** The counters of every sink ever built, summed. */
	SinkStats stats() {
		SinkStats total = SinkStats.ZERO;
		for (SinkRecording sink : this.sinks) {
			total = total.plus(sink.stats());
		}
		return total;
	}

	private Named remember(String name, SinkRecording recording) {
		this.sinks.add(recording);
		return new Named(name, recording);
	}

	private String nextName() {
		int n = this.count.incrementAndGet();
		return (n == 1) ? "sink" : "sink-" + n;
	}

}
