package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.status.SinkClient;
import java.time.Duration;
import java.util.Objects;

import io.github.kubeevents.CorrelatorOptions;
import io.github.kubeevents.Subscription;
import io.github.kubeevents.sink.EventShape;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.status.SinkMode;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of the kube-events recorder ({@code kubeevents.*}). The correlator, queue and retry defaults are
 * client-go's; the settings client-go does not have (sink writers, request timeout, series cache size, message size
 * limit) have defaults of their own, documented on each.
 *
 * <p>Bound by constructor; nested groups are never {@code null}. Invalid values fail startup with an
 * {@link InvalidKubeEventsPropertyException} naming the property.
 *
 * <p>Immutable and thread-safe.
 *
 * @param enabled Whether to auto-configure the event recorder.
 * @param component Reporting component written into every Event (source.component and reportingComponent).
 * Defaults to spring.application.name, or "kube-events" when that is not set.
 * @param host Reporting host written into every Event (source.host and reportingInstance). Defaults to the
 * POD_NAME environment variable, then HOSTNAME, then the machine's host name (as client-go), else the component.
 * @param logEvents Whether to log every recorded event as one structured line (logger
 * "io.github.kubeevents.events"). Always on when events are not written to a cluster.
 * @param shutdownTimeout Maximum time to wait, on shutdown, for queued events to be written. Keep it below
 * spring.lifecycle.timeout-per-shutdown-phase.
 * @param maxMessageSize Maximum size of an event message in UTF-8 bytes; longer messages are dropped as invalid
 * input.
 * @param kubeconfig Use of a developer kubeconfig.
 * @param sink Where events go and how they are written: mode, events API, writers and their queues, retries,
 * series cache, rate limit.
 * @param queue Queue settings.
 * @param correlator Correlator settings (aggregation and spam filter) of the API server sink.
 * @param strictProperties Whether a kubeevents.* name that no setting has (a typo) fails startup, naming the nearest
 * valid name; when false it is logged in one warning. System properties and environment variables are not checked.
 * @param tracing Trace context on Events (with Micrometer Tracing or the OpenTelemetry API): the write joins the
 * trace of the code that recorded the event, and optionally the Event carries its W3C traceparent.
 */
@ConfigurationProperties(KubeEventsProperties.PREFIX)
public record KubeEventsProperties(@DefaultValue("true") boolean enabled, @Nullable String component,
		@Nullable String host, @DefaultValue("true") boolean logEvents, @DefaultValue("10s") Duration shutdownTimeout,
		@DefaultValue("1MB") DataSize maxMessageSize, @DefaultValue Kubeconfig kubeconfig, @DefaultValue Sink sink,
		@DefaultValue Queue queue, @DefaultValue Correlator correlator,
		@DefaultValue("true") boolean strictProperties, @DefaultValue Tracing tracing) {

	/** The prefix of every property. */
	public static final String PREFIX = "kubeevents";

	/**
	 * Validates the properties.
	 * @throws InvalidKubeEventsPropertyException naming every invalid property of the group
	 */
	public KubeEventsProperties {
		Requirements requirements = new Requirements();
		requirements.require(component == null || !component.isBlank(), "kubeevents.component", component,
				"must not be blank");
		requirements.require(shutdownTimeout != null && isPositive(shutdownTimeout), "kubeevents.shutdown-timeout",
				shutdownTimeout, "must be positive");
		requirements.require(maxMessageSize != null && maxMessageSize.toBytes() >= 1
				&& maxMessageSize.toBytes() <= Integer.MAX_VALUE, "kubeevents.max-message-size", maxMessageSize,
				"must be between 1B and " + Integer.MAX_VALUE + "B");
		requirements.check();
	}

	/**
	 * {@link #maxMessageSize()} in bytes, for {@code EventBroadcaster.Builder#maxMessageBytes(int)}.
	 * @return the limit, between 1 and {@link Integer#MAX_VALUE}
	 */
	public int maxMessageBytes() {
		return Math.toIntExact(this.maxMessageSize.toBytes());
	}

	static boolean isPositive(Duration duration) {
		return !duration.isNegative() && !duration.isZero();
	}

	/**
	 * Use of a developer kubeconfig ({@code kubeevents.kubeconfig.*}). With {@code sink=auto} a kubeconfig
	 * ($KUBECONFIG, ~/.kube/config) is not used unless enabled here, so tests and local runs do not write Events
	 * into whatever cluster kubectl points at; {@code sink=kubernetes} always uses one when it finds one.
	 *
	 * @param enabled Whether sink "auto" writes to the cluster of a kubeconfig ($KUBECONFIG, then
	 * ~/.kube/config) when not running in Kubernetes.
	 */
	public record Kubeconfig(@DefaultValue("false") boolean enabled) {
	}

	/**
	 * Where events go and how they are written ({@code kubeevents.sink.*}).
	 *
	 * @param mode Where recorded events go: "auto" writes to the API server when running in Kubernetes (or when
	 * the application provides a cluster connection) and otherwise only logs, "kubernetes" requires a cluster,
	 * "log" only logs, "none" neither writes nor logs.
	 * @param api Events API to write: "auto" asks the API server once at startup whether events.k8s.io/v1 is served
	 * and falls back to core/v1, "events.k8s.io/v1" writes Events with EventSeries, "core/v1" writes Events with
	 * count PATCHes.
	 * @param requestTimeout Time limit of one API server request (connect, TLS handshake, write and read); 0 for
	 * none.
	 * @param writers Number of threads writing to the API server; writes are sharded by object, so one object's
	 * writes stay in order (1 writes every event in recording order, as client-go does).
	 * @param backlogCapacity Maximum number of writes the API server sink holds for its writer threads while the
	 * server is away or slow (all writers together); when it is full, the sink drops new writes (queue_full) and
	 * nothing else waits: the logger, the application's handlers and other sinks go on. The default holds 100 s of
	 * 200 distinct events/s; a held write takes about 1.5 KB.
	 * @param seriesCacheSize Maximum number of Events remembered for their series (events.k8s.io/v1); the least
	 * recently seen one is forgotten, after its final count is written.
	 * @param rateLimit Client-side limit on API server requests (off unless qps is set).
	 * @param retry Retry settings of API server writes.
	 * @param client Kubernetes client events are written through: "auto" uses the application's fabric8
	 * KubernetesClient bean when there is one and the official client is not configured (no ApiClient or
	 * KubeEventsConnectionDetails bean), else the official client; "official" always the official Java client;
	 * "fabric8" the KubernetesClient bean (requires event-recorder-fabric8 and such a bean). Either writes only
	 * where sink mode finds a cluster; the bean is a client, not a cluster. An EventsClient bean of the
	 * application replaces either, whatever this says.
	 * @param deterministicNames Whether to name each Event by its occurrence stream (object with uid, reason, type,
	 * message or series key, component; not the pod's name) instead of client-go's time-based names, so that after a
	 * restart or from a second replica the count continues on one Event; costs a GET and a PATCH more for the first
	 * write of a stream after a restart, nothing in steady state, and needs the "get" verb on events (without it,
	 * one WARN and client-go's names).
	 * @param shape Which fields core/v1 writes carry: "readers" adds eventTime to a first occurrence and a series
	 * (count, last observed time) to each repeat, so kubectl, the OpenTelemetry collector, Grafana Alloy, event
	 * exporters and events.k8s.io/v1 readers all show the right count and last-seen time, and makes api "auto" prefer
	 * core/v1; "client-go" writes exactly client-go's request bodies and lets "auto" prefer events.k8s.io/v1 as
	 * client-go does.
	 */
	public record Sink(@DefaultValue("auto") SinkMode mode, @DefaultValue("auto") String api,
			@DefaultValue("5s") Duration requestTimeout, @DefaultValue("4") int writers,
			@DefaultValue("20000") int backlogCapacity, @DefaultValue("4096") int seriesCacheSize,
			@DefaultValue RateLimit rateLimit, @DefaultValue Retry retry, @DefaultValue("auto") SinkClient client,
			@DefaultValue("false") boolean deterministicNames, @DefaultValue("readers") String shape) {

		/**
		 * Validates the sink settings.
		 * @throws InvalidKubeEventsPropertyException naming every invalid property of the group
		 */
		public Sink {
			Requirements requirements = new Requirements();
			requirements.require(mode != null, "kubeevents.sink.mode", mode,
					"must be one of auto, kubernetes, log, none");
			requirements.require(api != null && EventsApi.fromValue(api) != null, "kubeevents.sink.api", api,
					"must be one of auto, events.k8s.io/v1, core/v1");
			requirements.require(requestTimeout != null && !requestTimeout.isNegative(),
					"kubeevents.sink.request-timeout", requestTimeout, "must be zero (no limit) or positive");
			requirements.require(writers >= 1 && writers <= 64, "kubeevents.sink.writers", writers,
					"must be between 1 and 64");
			requirements.require(backlogCapacity >= 1 && backlogCapacity <= Subscription.Options.MAX_QUEUE_CAPACITY,
					"kubeevents.sink.backlog-capacity", backlogCapacity,
					"must be between 1 and " + Subscription.Options.MAX_QUEUE_CAPACITY);
			requirements.require(seriesCacheSize >= 1, "kubeevents.sink.series-cache-size", seriesCacheSize,
					"must be at least 1");
			requirements.require(client != null, "kubeevents.sink.client", client,
					"must be one of auto, official, fabric8");
			requirements.require(shape != null && EventShape.fromValue(shape) != null, "kubeevents.sink.shape", shape,
					"must be one of readers, client-go");
			requirements.check();
		}

		/**
		 * {@link #shape()} as the core library's value.
		 * @return the shape
		 */
		public EventShape eventShape() {
			return Objects.requireNonNull(EventShape.fromValue(this.shape));
		}

		/**
		 * {@link #api()} as the core library's value.
		 * @return the events API
		 */
		public EventsApi eventsApi() {
			return Objects.requireNonNull(EventsApi.fromValue(this.api));
		}

	}

	/**
	 * Client-side limit on the recorder's API server requests ({@code kubeevents.sink.rate-limit.*}), like the
	 * 5 QPS / burst 10 limiter of a client-go clientset. Off unless {@code qps} is set.
	 *
	 * @param qps Requests per second, sustained; unset for no limit.
	 * @param burst Requests that may be made at once after a quiet period.
	 */
	public record RateLimit(@Nullable Double qps, @DefaultValue("10") int burst) {

		/**
		 * Validates the rate limit.
		 * @throws InvalidKubeEventsPropertyException naming every invalid property of the group
		 */
		public RateLimit {
			Requirements requirements = new Requirements();
			requirements.require(qps == null || (qps > 0 && !qps.isInfinite()), "kubeevents.sink.rate-limit.qps", qps,
					"must be positive");
			requirements.require(burst >= 1, "kubeevents.sink.rate-limit.burst", burst, "must be at least 1");
			requirements.check();
		}

	}

	/**
	 * Queue settings ({@code kubeevents.queue.*}).
	 *
	 * @param capacity Maximum number of events waiting to be distributed to the subscribers; when it is full, new
	 * events are dropped (queue_full). client-go's is 1000; 10,000 absorbs what 1000 could not at a steady 20,000
	 * events/s from a cold JVM.
	 * @param subscriberCapacity Maximum number of events waiting for each subscriber that has a queue of its own
	 * (the logger, an application's handlers); not the API server sink, which runs on the distribution thread and
	 * is bounded by sink.backlog-capacity. client-go's is 1000.
	 * @param fullPolicy What to do when a subscriber's queue is full: "drop" the event for that subscriber, or
	 * "wait" for room (which delays every subscriber). Not for the API server sink, which always drops.
	 */
	public record Queue(@DefaultValue("10000") int capacity, @DefaultValue("10000") int subscriberCapacity,
			@DefaultValue("drop") Subscription.FullQueuePolicy fullPolicy) {

		/**
		 * Validates the queue settings.
		 * @throws InvalidKubeEventsPropertyException naming every invalid property of the group
		 */
		public Queue {
			Requirements requirements = new Requirements();
			requirements.requireCapacity(capacity, "kubeevents.queue.capacity");
			requirements.requireCapacity(subscriberCapacity, "kubeevents.queue.subscriber-capacity");
			requirements.require(fullPolicy != null, "kubeevents.queue.full-policy", fullPolicy,
					"must be drop or wait");
			requirements.check();
		}

		/**
		 * The subscriber options these settings describe.
		 * @return the options
		 */
		Subscription.Options toSubscriberOptions() {
			return new Subscription.Options(this.subscriberCapacity, this.fullPolicy);
		}

	}

	/**
	 * Retry settings of API server writes ({@code kubeevents.sink.retry.*}). Transport failures, unreadable answers and
	 * 429/5xx answers still busy after their Retry-After waits are retried; any other HTTP error status drops the
	 * event at once.
	 *
	 * @param maxAttempts Maximum number of attempts per event, including the first.
	 * @param sleep Delay between attempts; for core/v1 the first retry waits a random fraction of it, for
	 * events.k8s.io/v1 every retry waits 1 to 1.25 times it.
	 */
	public record Retry(@DefaultValue("12") int maxAttempts, @DefaultValue("10s") Duration sleep) {

		/**
		 * Validates the retry settings.
		 * @throws InvalidKubeEventsPropertyException naming every invalid property of the group
		 */
		public Retry {
			Requirements requirements = new Requirements();
			requirements.require(maxAttempts >= 1, "kubeevents.sink.retry.max-attempts", maxAttempts,
					"must be at least 1");
			requirements.require(sleep != null && !sleep.isNegative(), "kubeevents.sink.retry.sleep", sleep,
					"must be zero or positive");
			requirements.check();
		}

		/**
		 * The retry policy these settings describe.
		 * @return the policy
		 */
		RetryPolicy toPolicy() {
			return new RetryPolicy(this.maxAttempts, this.sleep);
		}

	}

	/**
	 * Correlator settings ({@code kubeevents.correlator.*}).
	 *
	 * @param cacheSize Maximum number of entries in each correlator cache (aggregator, observer, spam filter).
	 * @param spamFilter Spam filter settings.
	 * @param aggregation Aggregation settings.
	 * @param applyToEventsV1 Whether aggregation and the spam filter (each where enabled) also apply to
	 * events.k8s.io/v1 Events. Off as in client-go, whose events.k8s.io/v1 recorder has neither (series fold repeats
	 * there).
	 * @param minUpdateInterval Least time between two writes of one core/v1 Event: repeats within it are coalesced
	 * into one PATCH (their count, the latest timestamp), written when it ends or at a stop. 0 writes every repeat at
	 * once, as client-go does.
	 */
	public record Correlator(@DefaultValue("4096") int cacheSize, @DefaultValue SpamFilter spamFilter,
			@DefaultValue Aggregation aggregation, @DefaultValue("false") boolean applyToEventsV1,
			@DefaultValue("0s") Duration minUpdateInterval) {

		/**
		 * Validates the correlator settings.
		 * @throws InvalidKubeEventsPropertyException naming every invalid property of the group
		 */
		public Correlator {
			Requirements requirements = new Requirements();
			requirements.require(cacheSize >= 1, "kubeevents.correlator.cache-size", cacheSize, "must be at least 1");
			requirements.require(minUpdateInterval != null && !minUpdateInterval.isNegative(),
					"kubeevents.correlator.min-update-interval", minUpdateInterval, "must be zero or positive");
			requirements.check();
		}

		/**
		 * A correlator options builder preset with these settings (clock and key functions keep their defaults).
		 * @param api the events API the options are for: on events.k8s.io/v1 aggregation and the spam filter are
		 * off unless {@link #applyToEventsV1()}, as in client-go
		 * @return a new builder
		 */
		CorrelatorOptions.Builder toOptionsBuilder(EventsApi api) {
			boolean applies = api == EventsApi.CORE_V1 || this.applyToEventsV1;
			return CorrelatorOptions.builder()
				.cacheSize(this.cacheSize)
				.spamFilterEnabled(applies && this.spamFilter.enabled())
				.burst(this.spamFilter.burst())
				.qps(this.spamFilter.qps())
				.spamKeyFunction(this.spamFilter.key().function())
				.warningLane(this.spamFilter.warningLane())
				.warningBurst(this.spamFilter.warningLaneBurst())
				.warningQps(this.spamFilter.warningLaneQps())
				.minUpdateInterval(this.minUpdateInterval)
				.aggregationEnabled(applies && this.aggregation.enabled())
				.aggregateMaxEvents(this.aggregation.maxEvents())
				.aggregateInterval(this.aggregation.interval())
				.messagePrefix(this.aggregation.messagePrefix());
		}

	}

	/**
	 * Spam filter settings ({@code kubeevents.correlator.spam-filter.*}): a token bucket per key; an event that
	 * finds its bucket empty is dropped (spam_filtered).
	 *
	 * @param enabled Whether to apply the spam filter (on events.k8s.io/v1 only with
	 * correlator.apply-to-events-v1).
	 * @param burst Capacity of each token bucket, which is also its initial fill.
	 * @param refillInterval Time for one token to come back into a bucket (client-go's QPS of 1/300 as an
	 * interval).
	 * @param key What shares one token bucket: "object" (client-go's default: source, object and type) or
	 * "object-and-reason" (one bucket per reason too).
	 * @param warningLane Whether Warnings draw from a lane of buckets of their own, one per key and reason, so that
	 * neither Normal events nor Warnings of another reason can use up a Warning's budget. Off as in client-go.
	 * @param warningLaneBurst Capacity of each Warning-lane bucket. Unset: the same as burst.
	 * @param warningLaneRefillInterval Time for one token to come back into a Warning-lane bucket. Unset: the same as
	 * refill-interval.
	 */
	public record SpamFilter(@DefaultValue("true") boolean enabled, @DefaultValue("25") int burst,
			@DefaultValue("300s") Duration refillInterval, @DefaultValue("object") SpamKey key,
			@DefaultValue("false") boolean warningLane, @Nullable Integer warningLaneBurst,
			@Nullable Duration warningLaneRefillInterval) {

		/**
		 * Validates the spam filter settings.
		 * @throws InvalidKubeEventsPropertyException naming every invalid property of the group
		 */
		public SpamFilter {
			Requirements requirements = new Requirements();
			requirements.require(burst >= 1, "kubeevents.correlator.spam-filter.burst", burst, "must be at least 1");
			requirements.require(refillInterval != null && isPositive(refillInterval),
					"kubeevents.correlator.spam-filter.refill-interval", refillInterval, "must be positive");
			requirements.require(key != null, "kubeevents.correlator.spam-filter.key", key,
					"must be object or object-and-reason");
			requirements.require(warningLaneBurst == null || warningLaneBurst >= 1,
					"kubeevents.correlator.spam-filter.warning-lane-burst", warningLaneBurst, "must be at least 1");
			requirements.require(warningLaneRefillInterval == null || isPositive(warningLaneRefillInterval),
					"kubeevents.correlator.spam-filter.warning-lane-refill-interval", warningLaneRefillInterval,
					"must be positive");
			requirements.check();
		}

		/**
		 * The Warning lane's refill rate in tokens per second, or {@code null} for the same as {@link #qps()}.
		 * @return {@code 1 / warningLaneRefillInterval} in seconds, or {@code null}
		 */
		@Nullable Double warningLaneQps() {
			return (this.warningLaneRefillInterval != null) ? 1_000_000_000.0 / this.warningLaneRefillInterval.toNanos()
					: null;
		}

		/**
		 * The refill rate in tokens per second. client-go keeps its QPS as a float32, so its default refill is
		 * every 299.9999927 s rather than 300 s; here it is exactly the configured interval.
		 * @return {@code 1 / refillInterval} in seconds
		 */
		double qps() {
			return 1_000_000_000.0 / this.refillInterval.toNanos();
		}

	}

	/**
	 * Aggregation settings ({@code kubeevents.correlator.aggregation.*}): when an object gets too many events of
	 * one reason with distinct messages within the interval, they are folded into one event whose count grows.
	 *
	 * @param enabled Whether to aggregate similar events (on events.k8s.io/v1 only with
	 * correlator.apply-to-events-v1).
	 * @param maxEvents Number of distinct messages of similar events, within the interval, that starts
	 * aggregation.
	 * @param interval Sliding window within which similar events count towards aggregation.
	 * @param messagePrefix Prefix of the message of an aggregated event.
	 */
	public record Aggregation(@DefaultValue("true") boolean enabled, @DefaultValue("10") int maxEvents,
			@DefaultValue("600s") Duration interval,
			@DefaultValue("(combined from similar events): ") String messagePrefix) {

		/**
		 * Validates the aggregation settings.
		 * @throws InvalidKubeEventsPropertyException naming every invalid property of the group
		 */
		public Aggregation {
			Requirements requirements = new Requirements();
			requirements.require(maxEvents >= 2, "kubeevents.correlator.aggregation.max-events", maxEvents,
					"must be at least 2");
			requirements.require(interval != null && isPositive(interval), "kubeevents.correlator.aggregation.interval",
					interval,
					"must be positive");
			requirements.require(messagePrefix != null, "kubeevents.correlator.aggregation.message-prefix",
					messagePrefix,
					"must be set");
			requirements.check();
		}

	}

	/**
	 * Trace context on Events ({@code kubeevents.tracing.*}), used when the application has Micrometer Tracing (a
	 * {@code Tracer} bean), else the OpenTelemetry API (an {@code OpenTelemetry} bean or the Java agent's global
	 * one), or a {@code TraceContext.Capture} bean of its own: the caller's current span is captured when an
	 * event is recorded and travels with it to the writer thread.
	 *
	 * @param writeSpans Whether each API server request of an event's write runs in the trace context of the code
	 * that recorded the event, with a span of its own ("event create", "event patch": the Observation
	 * "kubeevents.event.write" with Micrometer Tracing; child of the caller's span), so that the write, and the
	 * OpenTelemetry Java agent's HTTP client span, join the caller's trace
	 * instead of starting new root spans. False: no span, and the writes stay outside the caller's trace.
	 * @param traceparentAnnotation Whether each Event carries the W3C traceparent of the span that recorded it as an
	 * annotation (on a repeat, the latest occurrence's), so that kubectl get event -o yaml leads to the trace.
	 * Events recorded with no current span get none.
	 * @param annotationKey Annotation key of the traceparent: "traceparent", as Tekton writes it on its Events; e.g.
	 * "tracing.k8s.io/traceparent" for tooling that follows the provisional KEP-5915.
	 */
	public record Tracing(@DefaultValue("true") boolean writeSpans,
			@DefaultValue("false") boolean traceparentAnnotation,
			@DefaultValue("traceparent") String annotationKey) {

		/**
		 * Validates the tracing settings.
		 * @throws InvalidKubeEventsPropertyException naming every invalid property of the group
		 */
		public Tracing {
			Requirements requirements = new Requirements();
			requirements.require(annotationKey != null && !annotationKey.isBlank(), "kubeevents.tracing.annotation-key",
					annotationKey, "must not be blank");
			requirements.check();
		}

		/**
		 * Whether anything needs the caller's context: with both options off nothing is captured.
		 * @return {@code true} when write spans or the annotation are on
		 */
		public boolean captures() {
			return this.writeSpans || this.traceparentAnnotation;
		}

	}

}
