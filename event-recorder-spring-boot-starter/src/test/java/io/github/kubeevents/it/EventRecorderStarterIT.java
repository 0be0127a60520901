package io.github.kubeevents.it;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.TickingClock;
import io.github.kubeevents.autoconfigure.CorrelatorOptionsCustomizer;
import io.github.kubeevents.autoconfigure.EventBroadcasterCustomizer;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.it.HttpExchangeLog.Exchange;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.RequiresCapability;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.context.SmartLifecycle;

import static io.github.kubeevents.it.ItSupport.COMPONENT;
import static io.github.kubeevents.it.ItSupport.HOST;
import static io.github.kubeevents.it.ItSupport.UUID_REGEX;
import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.createNamespace;
import static io.github.kubeevents.it.ItSupport.dropped;
import static io.github.kubeevents.it.ItSupport.drops;
import static io.github.kubeevents.it.ItSupport.events;
import static io.github.kubeevents.it.ItSupport.sinkStats;
import static io.github.kubeevents.it.ItSupport.snapshot;
import static io.github.kubeevents.it.ItSupport.starter;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The starter against a real kube-apiserver (the shared test cluster, see {@link WithTestCluster}): the
 * application's {@link ApiClient} bean, instrumented with {@link HttpExchangeLog}, feeds the auto-configured sink;
 * every assertion is on what the server stored and on the exact requests sent. Each test uses its own namespace.
 * {@link EventRecorderStarterK3sIT} runs the same scenarios on K3s.
 */
@WithTestCluster
class EventRecorderStarterIT {

	private static final String JSON = "application/json; charset=utf-8";

	private static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";

	private static final String AGGREGATE_PREFIX = "(combined from similar events): ";

	private KubernetesTestCluster cp;

	private CoreV1Api admin;

	private String ns;

	@BeforeEach
	void setUp(KubernetesTestCluster cp) throws ApiException {
		this.cp = cp;
		this.admin = new CoreV1Api(cp.adminClient());
		this.ns = createNamespace(this.admin);
	}

	/**
	 * Scenario 1: the first event about an object, every field as the server stored it: client-go's, plus in the
	 * readers' shape its microsecond {@code eventTime} and the reason as {@code action}.
	 */
	@ParameterizedTest(name = "kubeevents.sink.shape={0}")
	@ValueSource(strings = { "client-go", "readers" })
	void firstEventIsStoredWithEveryFieldExact(String shape) throws ApiException {
		V1ConfigMap configMap = this.admin
			.createNamespacedConfigMap(this.ns,
					new V1ConfigMap().metadata(new V1ObjectMeta().name("web-config").namespace(this.ns))
						.data(Map.of("mode", "strict")))
			.execute();
		// quotes, backslashes, a literal %s (event() does not format), unicode incl. a surrogate pair, newline, tab
		String message = "Invalid key \"mode\" in 'web-config': C:\\conf\\app.yaml at 100% %s \u2014 "
				+ "\u00fcml\u00e4ut \u65e5\u672c\u8a9e \u2713 \uD83D\uDE80\nsecond line\tafter tab\\";
		ApiClient client = this.cp.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);

		AtomicReference<EventBroadcaster> broadcaster = new AtomicReference<>();
		starter(client, "kubeevents.sink.shape=" + shape).run((context) -> {
			assertThat(context).hasNotFailed();
			// ApplicationContextRunner refreshes the context, so the SmartLifecycle has subscribed and started
			assertThat(context.getBean("kubeEventsLifecycle", SmartLifecycle.class).isRunning()).isTrue();
			broadcaster.set(context.getBean(EventBroadcaster.class));
			assertThat(broadcaster.get().stats().running()).isTrue();
			Instant before = Instant.now();
			context.getBean(EventRecorder.class).event(InvolvedObject.of(configMap), EventType.WARNING, "ConfigInvalid", message);
			Instant after = Instant.now();
			awaiting().until(() -> sinkStats(context).created() == 1);

			List<CoreV1Event> stored = events(this.admin, this.ns);
			assertThat(stored).hasSize(1);
			CoreV1Event event = stored.get(0);
			Matcher name = Pattern.compile("web-config\\.([0-9a-f]+)").matcher(event.getMetadata().getName());
			assertThat(name.matches()).as("name %s", event.getMetadata().getName()).isTrue();
			long nanos = Long.parseUnsignedLong(name.group(1), 16);
			assertThat(nanos).isBetween(unixNanos(before), unixNanos(after));
			OffsetDateTime recordedAt = OffsetDateTime.ofInstant(Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L)),
					ZoneOffset.UTC);
			assertThat(event.getMetadata().getNamespace()).isEqualTo(this.ns);
			assertThat(event.getInvolvedObject()).isEqualTo(new V1ObjectReference().kind("ConfigMap")
				.apiVersion("v1")
				.name("web-config")
				.namespace(this.ns)
				.uid(configMap.getMetadata().getUid())
				.resourceVersion(configMap.getMetadata().getResourceVersion()));
			assertThat(event.getSource()).isEqualTo(new V1EventSource().component(COMPONENT).host(HOST));
			assertThat(event.getReportingComponent()).isEqualTo(COMPONENT);
			assertThat(event.getReportingInstance()).isEqualTo(HOST);
			assertThat(event.getCount()).isEqualTo(1);
			assertThat(event.getFirstTimestamp()).isEqualTo(recordedAt);
			assertThat(event.getLastTimestamp()).isEqualTo(recordedAt);
			assertThat(event.getType()).isEqualTo("Warning");
			assertThat(event.getReason()).isEqualTo("ConfigInvalid");
			assertThat(event.getMessage()).isEqualTo(message);
			if (shape.equals("readers")) {
				Instant eventTime = event.getEventTime().toInstant();
				assertThat(eventTime).isBetween(before.truncatedTo(ChronoUnit.MICROS), after);
				assertThat(unixNanos(eventTime) / 1000).as("the name's occurrence, in microseconds").isEqualTo(nanos / 1000);
				assertThat(event.getAction()).isEqualTo("ConfigInvalid");
			}
			else {
				assertThat(event.getEventTime()).isNull();
				assertThat(event.getAction()).isNull();
			}
			assertThat(event.getSeries()).isNull();
			assertThat(event.getRelated()).isNull();
			assertThat(event.getMetadata().getAnnotations()).isEmpty();

			assertThat(http.exchanges()).singleElement().satisfies((exchange) -> {
				assertThat(exchange.method()).isEqualTo("POST");
				assertThat(exchange.path()).isEqualTo("/api/v1/namespaces/" + this.ns + "/events");
				assertThat(exchange.contentType()).isEqualTo(JSON);
				assertThat(exchange.code()).isEqualTo(201);
			});
			RecorderSnapshot snapshot = snapshot(context);
			assertThat(snapshot.sinks().get(0).stats()).isEqualTo(new RecorderStats.Writes(1, 0, 0, 0));
			assertThat(snapshot.dropped()).isEqualTo(drops());
		});
		// closing the context stopped the lifecycle, which shut the broadcaster down
		assertThat(broadcaster.get().stats().running()).isFalse();
	}

	/**
	 * Issue 12 item 1: an application context stopped and started again (what spring-test's context pausing and
	 * {@code ConfigurableApplicationContext.stop()/start()} do) writes the events recorded before the stop, those
	 * recorded while it was stopped (after the start), and those recorded after, none twice and none dropped.
	 */
	@Test
	void stoppedAndStartedContextWritesWhatWasRecordedBeforeBetweenAndAfter() throws ApiException {
		InvolvedObject pod = InvolvedObject.of("Pod", "v1", this.ns, "web-0");
		starter(this.cp.adminClient()).run((context) -> {
			EventRecorder recorder = context.getBean(EventRecorder.class);
			EventBroadcaster broadcaster = context.getBean(EventBroadcaster.class);
			recorder.event(pod, EventType.NORMAL, "Before", "recorded while running");
			awaiting().until(() -> sinkStats(context).created() == 1);

			context.stop();
			assertThat(broadcaster.stats().state()).isEqualTo("stopped");
			recorder.event(pod, EventType.WARNING, "Between", "recorded while stopped");
			assertThat(events(this.admin, this.ns)).extracting(CoreV1Event::getReason).containsExactly("Before");
			assertThat(broadcaster.stats().queue().depth()).as("kept for the start").isEqualTo(1);

			context.start();
			assertThat(broadcaster.stats().state()).isEqualTo("running");
			recorder.event(pod, EventType.NORMAL, "After", "recorded after the start");
			awaiting().until(() -> sinkStats(context).created() == 3);
			assertThat(events(this.admin, this.ns)).extracting(CoreV1Event::getReason, CoreV1Event::getCount)
				.containsExactlyInAnyOrder(tuple("Before", 1), tuple("Between", 1), tuple("After", 1));
			assertThat(snapshot(context).dropped()).isEqualTo(drops());
		});
	}

	/**
	 * Scenario 2: the same event three times, one second apart (controlled clock), becomes one Event: POST, then
	 * two strategic-merge PATCHes of count, lastTimestamp and message.
	 */
	@ParameterizedTest(name = "kubeevents.sink.shape={0}")
	@ValueSource(strings = { "client-go", "readers" })
	void identicalEventIsCountedWithStrategicMergePatches(String shape) throws ApiException {
		Instant t0 = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusMillis(250);
		TickingClock clock = TickingClock.fixed(t0);
		V1ObjectReference pod = pod("api-7d9f", "4b7e0c1e-0000-4000-8000-000000000002");
		ApiClient client = this.cp.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);

		boolean readers = shape.equals("readers");
		starter(client, "kubeevents.sink.shape=" + shape)
			.withBean(EventBroadcasterCustomizer.class, () -> (builder) -> builder.clock(clock))
			.withBean(CorrelatorOptionsCustomizer.class, () -> (builder) -> builder.clock(clock))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				EventRecorder recorder = context.getBean(EventRecorder.class);
				for (int i = 0; i < 3; i++) {
					recorder.event(InvolvedObject.of(pod), EventType.NORMAL, "Pulled", "Successfully pulled image \"nginx:1.27\"");
					clock.advance(Duration.ofSeconds(1));
				}
				awaiting().until(() -> sinkStats(context).patched() == 2);

				List<CoreV1Event> stored = events(this.admin, this.ns);
				assertThat(stored).hasSize(1);
				CoreV1Event event = stored.get(0);
				String expectedName = "api-7d9f." + Long.toHexString(unixNanos(t0));
				assertThat(event.getMetadata().getName()).isEqualTo(expectedName);
				assertThat(event.getCount()).isEqualTo(3);
				assertThat(event.getFirstTimestamp()).isEqualTo(utcSeconds(t0));
				assertThat(event.getLastTimestamp()).isEqualTo(utcSeconds(t0.plusSeconds(2)));
				assertThat(event.getMessage()).isEqualTo("Successfully pulled image \"nginx:1.27\"");
				assertThat(event.getReason()).isEqualTo("Pulled");
				assertThat(event.getType()).isEqualTo("Normal");
				assertThat(event.getInvolvedObject()).isEqualTo(pod);
				if (readers) {
					assertThat(event.getSeries().getCount()).isEqualTo(3);
					assertThat(event.getSeries().getLastObservedTime().toInstant()).isEqualTo(t0.plusSeconds(2));
					assertThat(event.getEventTime()).as("removed by the first repeat").isNull();
					assertThat(event.getAction()).isEqualTo("Pulled");
				}
				else {
					assertThat(event.getSeries()).isNull();
				}

				List<Exchange> exchanges = http.exchanges();
				assertThat(http.summary()).containsExactly("POST 201", "PATCH 200", "PATCH 200");
				assertThat(exchanges.get(0).path()).isEqualTo("/api/v1/namespaces/" + this.ns + "/events");
				assertThat(exchanges.get(0).contentType()).isEqualTo(JSON);
				for (int i = 1; i <= 2; i++) {
					Exchange patch = exchanges.get(i);
					assertThat(patch.path()).isEqualTo("/api/v1/namespaces/" + this.ns + "/events/" + expectedName);
					assertThat(patch.contentType()).isEqualTo(STRATEGIC_MERGE_PATCH);
					assertThat(JsonParser.parseString(patch.requestBody())).isEqualTo(JsonParser.parseString(
							"{\"count\":" + (i + 1) + ",\"lastTimestamp\":\"" + utcSeconds(t0.plusSeconds(i)).toInstant()
									+ "\",\"message\":\"Successfully pulled image \\\"nginx:1.27\\\"\""
									+ (readers ? ",\"series\":{\"count\":" + (i + 1) + ",\"lastObservedTime\":\""
											+ t0.plusSeconds(i).toString().replace(".250Z", ".250000Z") + "\"},\"eventTime\":null"
											: "")
									+ "}"));
				}
				assertThat(sinkStats(context)).isEqualTo(new RecorderStats.Writes(1, 2, 0, 0));
				assertThat(snapshot(context).dropped()).isEqualTo(drops());
			});
	}

	/**
	 * Scenario 3: ten distinct messages with one reason about one object: nine Events, then the tenth becomes
	 * the aggregate Event; an eleventh distinct message patches the aggregate (count 2, latest message).
	 */
	@Test
	void similarEventsAreAggregated() throws ApiException {
		V1ObjectReference pod = pod("worker-0", "4b7e0c1e-0000-4000-8000-000000000003");
		List<String> messages = IntStream.rangeClosed(1, 11)
			.mapToObj((i) -> "Back-off pulling image \"registry.example/app:v" + i + "\"")
			.toList();
		ApiClient client = this.cp.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);

		starter(client).run((context) -> {
			assertThat(context).hasNotFailed();
			EventRecorder recorder = context.getBean(EventRecorder.class);
			messages.subList(0, 10).forEach((m) -> recorder.event(InvolvedObject.of(pod), EventType.WARNING, "BackOff", m));
			awaiting().until(() -> sinkStats(context).created() == 10);

			List<CoreV1Event> stored = events(this.admin, this.ns);
			assertThat(stored).hasSize(10);
			assertThat(stored).filteredOn((e) -> !e.getMessage().startsWith(AGGREGATE_PREFIX))
				.allSatisfy((e) -> assertThat(e.getCount()).isEqualTo(1))
				.extracting(CoreV1Event::getMessage)
				.containsExactlyInAnyOrderElementsOf(messages.subList(0, 9));
			CoreV1Event aggregate = single(stored, (e) -> e.getMessage().startsWith(AGGREGATE_PREFIX));
			assertThat(aggregate.getMessage()).isEqualTo(AGGREGATE_PREFIX + messages.get(9));
			assertThat(aggregate.getCount()).isEqualTo(1);
			assertThat(aggregate.getMetadata().getName()).matches("worker-0\\.[0-9a-f]+");
			assertThat(aggregate.getInvolvedObject()).isEqualTo(pod);
			assertThat(aggregate.getReason()).isEqualTo("BackOff");
			assertThat(aggregate.getType()).isEqualTo("Warning");
			assertThat(aggregate.getSource()).isEqualTo(new V1EventSource().component(COMPONENT).host(HOST));
			assertThat(aggregate.getReportingComponent()).isEqualTo(COMPONENT);
			assertThat(aggregate.getReportingInstance()).isEqualTo(HOST);
			assertThat(aggregate.getFirstTimestamp()).isEqualTo(aggregate.getLastTimestamp());

			recorder.event(InvolvedObject.of(pod), EventType.WARNING, "BackOff", messages.get(10));
			awaiting().until(() -> sinkStats(context).patched() == 1);

			List<CoreV1Event> after = events(this.admin, this.ns);
			assertThat(after).hasSize(10);
			CoreV1Event patched = single(after, (e) -> e.getMessage().startsWith(AGGREGATE_PREFIX));
			assertThat(patched.getMetadata().getName()).isEqualTo(aggregate.getMetadata().getName());
			assertThat(patched.getMetadata().getUid()).isEqualTo(aggregate.getMetadata().getUid());
			assertThat(patched.getCount()).isEqualTo(2);
			assertThat(patched.getMessage()).isEqualTo(AGGREGATE_PREFIX + messages.get(10));
			assertThat(patched.getFirstTimestamp()).isEqualTo(aggregate.getFirstTimestamp());
			assertThat(http.summary()).containsExactlyElementsOf(concat(List.of("POST 201"), 10, List.of("PATCH 200")));
			assertThat(http.exchanges().get(10).path())
				.isEqualTo("/api/v1/namespaces/" + this.ns + "/events/" + aggregate.getMetadata().getName());
			assertThat(sinkStats(context)).isEqualTo(new RecorderStats.Writes(10, 1, 0, 0));
			assertThat(snapshot(context).dropped()).isEqualTo(drops());
		});
	}

	/**
	 * Scenario 4: a burst beyond the spam budget. Interplay under test: identical events (aggregation on, as by
	 * default), so the observer turns repeats into PATCHes, and the spam filter sits after the observer: with
	 * burst 5, twelve occurrences give 1 POST + 4 PATCHes and 7 spam-filtered drops, while the observer still
	 * counts the suppressed occurrences. When one token has refilled (qps 1/300, controlled correlator clock),
	 * the 13th occurrence is written with count 13: the suppressed ones are included, as in client-go.
	 */
	@Test
	void burstBeyondTheSpamBudgetIsFiltered() throws ApiException {
		Instant t0 = Instant.now().truncatedTo(ChronoUnit.SECONDS);
		TickingClock clock = TickingClock.fixed(t0);
		V1ObjectReference pod = pod("flappy-0", "4b7e0c1e-0000-4000-8000-000000000004");
		ApiClient client = this.cp.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);

		starter(client, "kubeevents.correlator.spam-filter.burst=5")
			.withBean(EventBroadcasterCustomizer.class, () -> (builder) -> builder.clock(clock))
			.withBean(CorrelatorOptionsCustomizer.class, () -> (builder) -> builder.clock(clock))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				EventRecorder recorder = context.getBean(EventRecorder.class);
				for (int i = 0; i < 12; i++) {
					recorder.event(InvolvedObject.of(pod), EventType.WARNING, "Unhealthy", "Readiness probe failed: HTTP 503");
				}
				// correlation is on the distribution thread, the writes on the sink's writer thread: wait for both
				awaiting().until(() -> dropped(context, DropReason.SPAM_FILTERED) == 7 && http.size() == 5);

				assertThat(http.summary()).containsExactly("POST 201", "PATCH 200", "PATCH 200", "PATCH 200",
						"PATCH 200");
				CoreV1Event event = single(events(this.admin, this.ns), (e) -> true);
				assertThat(event.getCount()).isEqualTo(5);
				assertThat(sinkStats(context)).isEqualTo(new RecorderStats.Writes(1, 4, 0, 0));
				assertThat(snapshot(context).dropped()).isEqualTo(drops("spam_filtered", 7));

				clock.advance(Duration.ofSeconds(301));
				recorder.event(InvolvedObject.of(pod), EventType.WARNING, "Unhealthy", "Readiness probe failed: HTTP 503");
				awaiting().until(() -> sinkStats(context).patched() == 5);

				CoreV1Event after = single(events(this.admin, this.ns), (e) -> true);
				assertThat(after.getMetadata().getName()).isEqualTo(event.getMetadata().getName());
				assertThat(after.getCount()).isEqualTo(13);
				assertThat(after.getFirstTimestamp()).isEqualTo(utcSeconds(t0));
				assertThat(after.getLastTimestamp()).isEqualTo(utcSeconds(t0.plusSeconds(301)));
				assertThat(http.size()).isEqualTo(6);
				assertThat(JsonParser.parseString(http.exchanges().get(5).requestBody()).getAsJsonObject().get("count")
					.getAsInt()).isEqualTo(13);
				assertThat(snapshot(context).dropped()).isEqualTo(drops("spam_filtered", 7));
			});
	}

	/**
	 * Scenario 5: the Event is deleted on the server; the next occurrence PATCHes, gets 404 and re-creates it
	 * under the same name with the count carried over.
	 */
	@Test
	void deletedEventIsRecreatedWithItsCount() throws ApiException {
		V1ObjectReference pod = pod("cache-1", "4b7e0c1e-0000-4000-8000-000000000005");
		ApiClient client = this.cp.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);

		starter(client).run((context) -> {
			assertThat(context).hasNotFailed();
			EventRecorder recorder = context.getBean(EventRecorder.class);
			recorder.event(InvolvedObject.of(pod), EventType.WARNING, "Evicted", "The node was low on resource: memory.");
			awaiting().until(() -> sinkStats(context).created() == 1);
			CoreV1Event first = single(events(this.admin, this.ns), (e) -> true);
			String name = first.getMetadata().getName();

			this.admin.deleteNamespacedEvent(name, this.ns).execute();
			assertThat(events(this.admin, this.ns)).isEmpty();

			recorder.event(InvolvedObject.of(pod), EventType.WARNING, "Evicted", "The node was low on resource: memory.");
			awaiting().until(() -> sinkStats(context).created() == 2);

			CoreV1Event recreated = single(events(this.admin, this.ns), (e) -> true);
			assertThat(recreated.getMetadata().getName()).isEqualTo(name);
			assertThat(recreated.getMetadata().getUid()).isNotEqualTo(first.getMetadata().getUid());
			assertThat(recreated.getCount()).isEqualTo(2);
			assertThat(recreated.getFirstTimestamp()).isEqualTo(first.getFirstTimestamp());
			assertThat(recreated.getMessage()).isEqualTo("The node was low on resource: memory.");
			assertThat(http.summary()).containsExactly("POST 201", "PATCH 404", "POST 201");
			List<Exchange> exchanges = http.exchanges();
			assertThat(exchanges.get(1).path()).isEqualTo("/api/v1/namespaces/" + this.ns + "/events/" + name);
			assertThat(status(exchanges.get(1))).isEqualTo(
					Map.of("reason", "NotFound", "message", "events \"" + name + "\" not found"));
			assertThat(exchanges.get(2).path()).isEqualTo("/api/v1/namespaces/" + this.ns + "/events");
			JsonObject body = JsonParser.parseString(exchanges.get(2).requestBody()).getAsJsonObject();
			assertThat(body.getAsJsonObject("metadata").get("name").getAsString()).isEqualTo(name);
			assertThat(body.getAsJsonObject("metadata").has("resourceVersion")).isFalse();
			assertThat(body.get("count").getAsInt()).isEqualTo(2);
			assertThat(sinkStats(context)).isEqualTo(new RecorderStats.Writes(2, 0, 0, 0));
			assertThat(snapshot(context).dropped()).isEqualTo(drops());
		});
	}

	/**
	 * Scenario 6: an identity that may not create Events gets 403 once (no retry), counted as rejected; the same
	 * event through an admin client in another context is written.
	 */
	@Test
	void forbiddenIdentityIsRejectedOnceAndAdminIsUnaffected() throws ApiException {
		V1ObjectReference pod = pod("locked-0", "4b7e0c1e-0000-4000-8000-000000000006");
		ApiClient restricted = this.cp.restrictedClient();
		HttpExchangeLog restrictedHttp = HttpExchangeLog.attachTo(restricted);

		starter(restricted).run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean(EventRecorder.class).event(InvolvedObject.of(pod), EventType.NORMAL, "Scheduled", "Assigned to node-1");
			awaiting().until(() -> dropped(context, DropReason.REJECTED_BY_SERVER) == 1);

			assertThat(restrictedHttp.summary()).containsExactly("POST 403");
			assertThat(status(restrictedHttp.exchanges().get(0))).isEqualTo(Map.of("reason", "Forbidden", "message",
					"events is forbidden: User \"" + this.cp.restrictedUserName() + "\" cannot create resource"
							+ " \"events\" in API group \"\" in the namespace \"" + this.ns + "\""));
			assertThat(sinkStats(context)).isEqualTo(new RecorderStats.Writes(0, 0, 0, 1));
			assertThat(snapshot(context).dropped()).isEqualTo(drops("rejected_by_server", 1));
		});
		assertThat(events(this.admin, this.ns)).isEmpty();

		ApiClient adminClient = this.cp.adminClient();
		HttpExchangeLog adminHttp = HttpExchangeLog.attachTo(adminClient);
		starter(adminClient).run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean(EventRecorder.class).event(InvolvedObject.of(pod), EventType.NORMAL, "Scheduled", "Assigned to node-1");
			awaiting().until(() -> sinkStats(context).created() == 1);

			CoreV1Event event = single(events(this.admin, this.ns), (e) -> true);
			assertThat(event.getReason()).isEqualTo("Scheduled");
			assertThat(event.getMessage()).isEqualTo("Assigned to node-1");
			assertThat(event.getCount()).isEqualTo(1);
			assertThat(adminHttp.summary()).containsExactly("POST 201");
			assertThat(snapshot(context).dropped()).isEqualTo(drops());
		});
		assertThat(restrictedHttp.size()).isEqualTo(1);
	}

	/**
	 * Scenario 7: an object in a namespace that does not exist is rejected with 404 after one attempt; a
	 * cluster-scoped object is recorded in namespace {@code default} with no involvedObject.namespace.
	 */
	@Test
	void missingNamespaceIsRejectedAndClusterScopedObjectGoesToDefault() throws ApiException {
		String missing = "missing-" + UUID.randomUUID().toString().substring(0, 8);
		V1ObjectReference orphan = new V1ObjectReference().kind("ConfigMap")
			.apiVersion("v1")
			.namespace(missing)
			.name("orphan")
			.uid("4b7e0c1e-0000-4000-8000-000000000007");
		V1Node node = createOrReadNode("node-a");
		ApiClient client = this.cp.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);

		starter(client).run((context) -> {
			assertThat(context).hasNotFailed();
			EventRecorder recorder = context.getBean(EventRecorder.class);
			recorder.event(InvolvedObject.of(orphan), EventType.WARNING, "Orphaned", "Nobody home");
			awaiting().until(() -> dropped(context, DropReason.REJECTED_BY_SERVER) == 1);

			assertThat(http.summary()).containsExactly("POST 404");
			assertThat(http.exchanges().get(0).path()).isEqualTo("/api/v1/namespaces/" + missing + "/events");
			assertThat(status(http.exchanges().get(0)))
				.isEqualTo(Map.of("reason", "NotFound", "message", "namespaces \"" + missing + "\" not found"));
			assertThat(sinkStats(context)).isEqualTo(new RecorderStats.Writes(0, 0, 0, 1));

			recorder.event(InvolvedObject.of(node), EventType.NORMAL, "NodeReady", "Node node-a status is now: NodeReady");
			awaiting().until(() -> sinkStats(context).created() == 1);

			List<CoreV1Event> stored = events(this.admin, "default",
					"involvedObject.uid=" + node.getMetadata().getUid());
			assertThat(stored).hasSize(1);
			CoreV1Event event = stored.get(0);
			assertThat(event.getMetadata().getNamespace()).isEqualTo("default");
			assertThat(event.getMetadata().getName()).matches("node-a\\.[0-9a-f]+");
			assertThat(event.getInvolvedObject()).isEqualTo(new V1ObjectReference().kind("Node")
				.apiVersion("v1")
				.name("node-a")
				.uid(node.getMetadata().getUid())
				.resourceVersion(node.getMetadata().getResourceVersion()));
			assertThat(event.getInvolvedObject().getNamespace()).isNull();
			assertThat(event.getReason()).isEqualTo("NodeReady");
			assertThat(event.getMessage()).isEqualTo("Node node-a status is now: NodeReady");
			assertThat(http.summary()).containsExactly("POST 404", "POST 201");
			assertThat(http.exchanges().get(1).path()).isEqualTo("/api/v1/namespaces/default/events");
			assertThat(sinkStats(context)).isEqualTo(new RecorderStats.Writes(1, 0, 0, 1));
			assertThat(snapshot(context).dropped()).isEqualTo(drops("rejected_by_server", 1));
		});
	}

	/**
	 * Scenario 7b: a namespace being deleted (envtest runs no namespace controller, so it stays Terminating):
	 * NamespaceLifecycle admission answers 403 with cause NamespaceTerminating; one attempt, counted as rejected.
	 */
	@Test
	@RequiresCapability(Capability.NAMESPACES_STAY_TERMINATING)
	void terminatingNamespaceIsRejectedOnce() throws ApiException {
		this.admin.deleteNamespace(this.ns).execute();
		// wait until admission (which reads an informer cache) refuses new objects in the namespace
		awaiting().until(() -> {
			try {
				this.admin.createNamespacedConfigMap(this.ns, new V1ConfigMap()
					.metadata(new V1ObjectMeta().generateName("probe-").namespace(this.ns))).execute();
				return false;
			}
			catch (ApiException ex) {
				if (ex.getCode() == 403 && ex.getResponseBody().contains("NamespaceTerminating")) {
					return true;
				}
				throw ex;
			}
		});
		ApiClient client = this.cp.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);

		starter(client).run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean(EventRecorder.class)
				.event(InvolvedObject.of(pod("drain-0", "4b7e0c1e-0000-4000-8000-00000000007b")), EventType.NORMAL, "Killing",
						"Stopping container app");
			awaiting().until(() -> dropped(context, DropReason.REJECTED_BY_SERVER) == 1);

			assertThat(http.summary()).containsExactly("POST 403");
			Exchange exchange = http.exchanges().get(0);
			String eventName = JsonParser.parseString(exchange.requestBody()).getAsJsonObject()
				.getAsJsonObject("metadata").get("name").getAsString();
			assertThat(eventName).matches("drain-0\\.[0-9a-f]+");
			assertThat(status(exchange)).isEqualTo(Map.of("reason", "Forbidden", "message", "events \"" + eventName
					+ "\" is forbidden: unable to create new content in namespace " + this.ns
					+ " because it is being terminated"));
			JsonObject cause = JsonParser.parseString(exchange.errorBody()).getAsJsonObject()
				.getAsJsonObject("details").getAsJsonArray("causes").get(0).getAsJsonObject();
			assertThat(cause.get("reason").getAsString()).isEqualTo("NamespaceTerminating");
			assertThat(sinkStats(context)).isEqualTo(new RecorderStats.Writes(0, 0, 0, 1));
			assertThat(snapshot(context).dropped()).isEqualTo(drops("rejected_by_server", 1));
		});
	}

	/**
	 * Scenario 8: object names that do not make DNS-1123 Event names (uppercase, {@code :}) get a UUID-shaped
	 * Event name; the involved object keeps its name, and a repeat patches the same UUID-named Event. Also
	 * pins down what the server itself does with such names on core/v1 (accepts) and events.k8s.io/v1 (422).
	 */
	@Test
	void invalidEventNamesFallBackToUuids() throws ApiException {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(this.cp.adminClient());
		List<V1Role> roles = List.of(role(rbac, "Web-Server"), role(rbac, "system:controller"));
		// What the real server says about <name>.<hex> for these names (in a scratch namespace): core/v1 accepts
		// them (no name validation there, for backwards compatibility); events.k8s.io/v1 refuses them. The UUID
		// fallback is client-go's choice (GenerateEventName), kept so a name is valid under both APIs.
		String scratch = createNamespace(this.admin);
		EventsV1Api eventsV1 = new EventsV1Api(this.cp.adminClient());
		for (String invalid : List.of("Web-Server.18ecd2fe51bcac08", "system:controller.18ecd2fe51bcac08")) {
			V1ObjectReference regarding = new V1ObjectReference().kind("Role").namespace(scratch).name("x");
			CoreV1Event legacy = this.admin.createNamespacedEvent(scratch,
					new CoreV1Event().metadata(new V1ObjectMeta().name(invalid).namespace(scratch))
						.involvedObject(regarding)
						.reason("Probe")
						.type("Normal"))
				.execute();
			assertThat(legacy.getMetadata().getName()).isEqualTo(invalid);
			ApiException refused = catchThrowableOfType(ApiException.class,
					() -> eventsV1.createNamespacedEvent(scratch,
							new EventsV1Event().metadata(new V1ObjectMeta().name(invalid).namespace(scratch))
								.eventTime(OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS))
								.reportingController("example.com/probe")
								.reportingInstance("probe-1")
								.action("Probe")
								.reason("Probe")
								.type("Normal")
								.regarding(regarding))
						.execute());
			assertThat(refused).as("events.k8s.io/v1 create of %s", invalid).isNotNull();
			assertThat(refused.getCode()).isEqualTo(422);
			JsonObject status = JsonParser.parseString(refused.getResponseBody()).getAsJsonObject();
			assertThat(status.get("reason").getAsString()).isEqualTo("Invalid");
			assertThat(status.get("message").getAsString()).isEqualTo("Event \"" + invalid
					+ "\" is invalid: metadata.name: Invalid value: \"" + invalid + "\": a lowercase RFC 1123 subdomain"
					+ " must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an"
					+ " alphanumeric character (e.g. 'example.com', regex used for validation is"
					+ " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
		}
		ApiClient client = this.cp.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);

		starter(client).run((context) -> {
			assertThat(context).hasNotFailed();
			EventRecorder recorder = context.getBean(EventRecorder.class);
			for (V1Role role : roles) {
				recorder.eventf(role, EventType.NORMAL, "Reconciled", "Role %s reconciled", role.getMetadata().getName());
			}
			awaiting().until(() -> sinkStats(context).created() == 2);

			for (V1Role role : roles) {
				String roleName = role.getMetadata().getName();
				CoreV1Event event = single(events(this.admin, this.ns, "involvedObject.uid=" + role.getMetadata().getUid()),
						(e) -> true);
				assertThat(event.getMetadata().getName()).as("event name for %s", roleName).matches(UUID_REGEX);
				assertThat(event.getInvolvedObject()).isEqualTo(new V1ObjectReference().kind("Role")
					.apiVersion("rbac.authorization.k8s.io/v1")
					.name(roleName)
					.namespace(this.ns)
					.uid(role.getMetadata().getUid())
					.resourceVersion(role.getMetadata().getResourceVersion()));
				assertThat(event.getMessage()).isEqualTo("Role " + roleName + " reconciled");
				assertThat(event.getCount()).isEqualTo(1);
			}
			List<String> names = events(this.admin, this.ns).stream().map((e) -> e.getMetadata().getName()).toList();
			assertThat(names).hasSize(2).doesNotHaveDuplicates();

			for (V1Role role : roles) {
				recorder.eventf(role, EventType.NORMAL, "Reconciled", "Role %s reconciled", role.getMetadata().getName());
			}
			awaiting().until(() -> sinkStats(context).patched() == 2);

			List<CoreV1Event> after = events(this.admin, this.ns);
			assertThat(after).extracting((e) -> e.getMetadata().getName()).containsExactlyInAnyOrderElementsOf(names);
			assertThat(after).extracting(CoreV1Event::getCount).containsExactly(2, 2);
			assertThat(http.summary()).containsExactly("POST 201", "POST 201", "PATCH 200", "PATCH 200");
			assertThat(http.exchanges().subList(2, 4)).extracting(Exchange::path)
				.containsExactlyInAnyOrderElementsOf(
						names.stream().map((n) -> "/api/v1/namespaces/" + this.ns + "/events/" + n).toList());
			assertThat(snapshot(context).dropped()).isEqualTo(drops());
		});
	}

	// ------------------------------------------------------------------------------------------------ helpers

	private V1ObjectReference pod(String name, String uid) {
		return new V1ObjectReference().kind("Pod").apiVersion("v1").namespace(this.ns).name(name).uid(uid);
	}

	private V1Role role(RbacAuthorizationV1Api rbac, String name) throws ApiException {
		return rbac
			.createNamespacedRole(this.ns,
					new V1Role().metadata(new V1ObjectMeta().name(name).namespace(this.ns))
						.rules(List.of(new V1PolicyRule().apiGroups(List.of(""))
							.resources(List.of("configmaps"))
							.verbs(List.of("get")))))
			.execute();
	}

	private V1Node createOrReadNode(String name) throws ApiException {
		try {
			return this.admin.createNode(new V1Node().metadata(new V1ObjectMeta().name(name))).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() != 409) {
				throw ex;
			}
			return this.admin.readNode(name).execute();
		}
	}

	private static OffsetDateTime utcSeconds(Instant instant) {
		return OffsetDateTime.ofInstant(instant.truncatedTo(ChronoUnit.SECONDS), ZoneOffset.UTC);
	}

	private static CoreV1Event single(List<CoreV1Event> events, java.util.function.Predicate<CoreV1Event> filter) {
		List<CoreV1Event> matching = events.stream().filter(filter).toList();
		assertThat(matching).as("matching events among %s", events).hasSize(1);
		return matching.get(0);
	}

	private static Map<String, String> status(Exchange exchange) {
		JsonObject status = JsonParser.parseString(exchange.errorBody()).getAsJsonObject();
		assertThat(status.get("kind").getAsString()).isEqualTo("Status");
		assertThat(status.get("code").getAsInt()).isEqualTo(exchange.code());
		return Map.of("reason", status.get("reason").getAsString(), "message", status.get("message").getAsString());
	}

	private static List<String> concat(List<String> repeated, int times, List<String> tail) {
		List<String> result = new java.util.ArrayList<>();
		for (int i = 0; i < times; i++) {
			result.addAll(repeated);
		}
		result.addAll(tail);
		return result;
	}

	private static long unixNanos(Instant time) {
		return time.getEpochSecond() * 1_000_000_000L + time.getNano();
	}

}
