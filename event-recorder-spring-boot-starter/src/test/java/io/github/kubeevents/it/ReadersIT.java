package io.github.kubeevents.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import ch.qos.logback.classic.Level;
import com.google.gson.JsonObject;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.LogCapture;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.TickingClock;
import io.github.kubeevents.autoconfigure.EventBroadcasterCustomizer;
import io.github.kubeevents.it.Readers.Shown;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.createNamespace;
import static io.github.kubeevents.it.ItSupport.snapshot;
import static io.github.kubeevents.it.ItSupport.starter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the readers of Events show, against a real kube-apiserver: the count and last-seen time that {@code kubectl
 * events}, {@code kubectl describe} (v1.35, built from its module), the OpenTelemetry collector's
 * {@code k8seventsreceiver} (run through our driver) and the API server's own Table (what k9s renders) report, and
 * what the readers that cannot be run here take from the stored Event by the fields their published code reads
 * (marked {@code (fields)}; each model's Javadoc names the file read, in a survey of their code of December 2026):
 * Grafana Alloy, kubernetes-event-exporter with updates, Headlamp and Headlamp #5922, the Kubernetes Dashboard,
 * Freelens, Fluent Bit, Elastic Metricbeat, Datadog, kubernetes-mcp-server (no count: its cells judge the time
 * only), and the events.k8s.io/v1 readers OpenTelemetry PR #50962, Vector #24448 and the GKE event-exporter #1034.
 * A Go reader shows a count of 0 where a JSON one shows none.
 *
 * <p>One timeline per write shape, recorded on an injected clock from one second after the receiver started
 * (it drops Events older than its start), so every reader sees the same four scenarios:
 * <ul>
 * <li>single: one occurrence at t0;</li>
 * <li>repeated: seven, one a second (t0 … t0+6 s);</li>
 * <li>paused: three (t0 … t0+2 s), then one more at t0+12 s;</li>
 * <li>restarted: deterministic names, three from one recorder (t0+13 … t0+15 s), which stops, then two from a new
 * one (t0+16, t0+17 s).</li>
 * </ul>
 * The readers are read while the recorders run, once the wall clock has passed the last occurrence: right means the
 * occurrences' count and a last-seen time within 1 s of the last occurrence (2 s for kubectl, which prints whole
 * seconds of age).
 */
@WithTestCluster
class ReadersIT {

	/** The scenarios: object name → (occurrences, offset of the last one from t0 in seconds). */
	private static final Map<String, int[]> EXPECTED = new LinkedHashMap<>();

	static {
		EXPECTED.put("single", new int[] { 1, 0 });
		EXPECTED.put("repeated", new int[] { 7, 6 });
		EXPECTED.put("paused", new int[] { 4, 12 });
		EXPECTED.put("restarted", new int[] { 5, 17 });
	}

	private static final String REASON = "Probed";

	/** k9s, which renders the API server's Table: read here from the server itself. */
	private static final String K9S = "k9s (server Table)";

	private KubernetesTestCluster cluster;

	private String ns;

	private Path kubeconfig;

	private final Map<String, String> uids = new LinkedHashMap<>();

	@BeforeEach
	void setUp(KubernetesTestCluster cluster, @TempDir Path temp) throws ApiException {
		this.cluster = cluster;
		CoreV1Api admin = new CoreV1Api(cluster.adminClient());
		this.ns = createNamespace(admin);
		this.kubeconfig = cluster.writeKubeconfig(temp.resolve("kubeconfig"), KubernetesTestCluster.Identity.ADMIN);
		for (String name : EXPECTED.keySet()) {
			V1ConfigMap map = admin.createNamespacedConfigMap(this.ns,
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).putDataItem("k", "v")).execute();
			this.uids.put(name, map.getMetadata().getUid());
		}
	}

	/**
	 * The default: the readers' shape, and {@code auto} choosing core/v1 although events.k8s.io/v1 is served; every
	 * reader is right. Recorded off a pod ({@link ItSupport#starterOffAPod}), so the host is the machine's host name
	 * and the single occurrence is written with {@code eventTime} and {@code action}, in both views.
	 */
	@Test
	void readersShapeEveryReaderShowsTheCountAndTheLastOccurrence() throws Exception {
		Matrix matrix = recordAndCheck("readers", "readers shape, api auto", "core/v1", "kubeevents.sink.api=auto");
		for (Cell cell : matrix.cells) {
			assertThat(cell.right()).as(cell.toString()).isTrue();
		}
		String machine = ItSupport.machineHostName();
		Instant t0 = matrix.t0.truncatedTo(ChronoUnit.MICROS);
		CoreV1Event single = matrix.core.get("single");
		assertThat(single.getEventTime()).as("eventTime").isNotNull();
		assertThat(single.getEventTime().toInstant()).isEqualTo(t0);
		assertThat(single.getAction()).isEqualTo(REASON);
		assertThat(single.getReportingInstance()).isEqualTo(machine);
		assertThat(single.getSource().getHost()).isEqualTo(machine);
		EventsV1Event view = new EventsV1Api(this.cluster.adminClient())
			.readNamespacedEvent(single.getMetadata().getName(), this.ns)
			.execute();
		assertThat(view.getAction()).isEqualTo(REASON);
		assertThat(view.getEventTime()).as("eventTime of the events.k8s.io/v1 view").isNotNull();
		assertThat(view.getEventTime().toInstant()).isEqualTo(t0);
		assertThat(view.getReportingInstance()).isEqualTo(machine);
	}

	/**
	 * client-go's core/v1 bodies (no series, no {@code eventTime}): right in every core/v1 reader; the
	 * events.k8s.io/v1 readers that take the count from {@code series} alone show 1 (OTel #50962, also with no
	 * time; Headlamp #5922, at the right time).
	 */
	@Test
	void clientGoCoreV1IsLostOnlyByTheEventsV1ReadersThatCountBySeries() throws Exception {
		Matrix matrix = recordAndCheck("client-go-core-v1", "client-go shape, core/v1", "core/v1",
				"kubeevents.sink.shape=client-go", "kubeevents.sink.api=core/v1");
		Map<String, Wrong> wrong = new LinkedHashMap<>();
		for (String scenario : EXPECTED.keySet()) {
			wrong.put("OTel #50962 (fields) / " + scenario, new Wrong(1, null));
			if (!scenario.equals("single")) {
				Instant last = matrix.t0.plusSeconds(EXPECTED.get(scenario)[1]).truncatedTo(ChronoUnit.SECONDS);
				wrong.put("Headlamp #5922 (fields) / " + scenario, new Wrong(1, last));
			}
		}
		assertWrongExactly(matrix, wrong);
	}

	/**
	 * client-go's events.k8s.io/v1 series (its auto), stored with {@code count} 0, no {@code lastTimestamp} and a
	 * series written at the second occurrence and at the stop: the core/v1 readers show no count (or 0) and the
	 * first occurrence (or none); the series readers show x2 and the second occurrence until the series is
	 * written again (the restarted stream is right there: the first recorder's stop wrote it).
	 */
	@Test
	void clientGoEventsV1ShowsNoCountToTheCoreV1Readers() throws Exception {
		Matrix matrix = recordAndCheck("client-go-events-v1", "client-go shape, api auto", "events.k8s.io/v1",
				"kubeevents.sink.shape=client-go", "kubeevents.sink.api=auto");
		Instant first = matrix.t0.truncatedTo(ChronoUnit.MICROS);
		Instant second = matrix.t0.plusSeconds(1).truncatedTo(ChronoUnit.MICROS);
		Instant restartedFirst = matrix.t0.plusSeconds(13).truncatedTo(ChronoUnit.MICROS);
		Map<String, Instant> eventTime = Map.of("single", first, "repeated", first, "paused", first, "restarted",
				restartedFirst);
		Map<String, Wrong> wrong = new LinkedHashMap<>();
		for (String stale : List.of("repeated", "paused")) {
			// the series as written at the second occurrence
			for (String reader : List.of("kubectl events", "kubectl describe", K9S)) {
				wrong.put(reader + " / " + stale, Wrong.around(2, second));
			}
			for (String reader : List.of("OTel #50962 (fields)", "Headlamp #5922 (fields)", "Headlamp (fields)",
					"Vector #24448 (fields)", "GKE event-exporter #1034 (fields)")) {
				wrong.put(reader + " / " + stale, new Wrong(2, second));
			}
			wrong.put("kubernetes-mcp-server (fields) / " + stale, new Wrong(null, first));
		}
		wrong.put("kubernetes-mcp-server (fields) / restarted", new Wrong(null, restartedFirst));
		wrong.put("Headlamp (fields) / single", new Wrong(null, first));
		wrong.put("Vector #24448 (fields) / single", new Wrong(null, first));
		wrong.put("GKE event-exporter #1034 (fields) / single", new Wrong(0, first));
		eventTime.forEach((scenario, time) -> {
			for (String reader : List.of("OTel k8seventsreceiver", "Alloy (fields)",
					"event exporter, updates (fields)")) {
				wrong.put(reader + " / " + scenario, new Wrong(null, time));
			}
			wrong.put("Kubernetes Dashboard (fields) / " + scenario, new Wrong(0, time));
			wrong.put("Datadog (fields) / " + scenario, new Wrong(0, time));
			wrong.put("Elastic Metricbeat (fields) / " + scenario, new Wrong(0, null));
			wrong.put("Freelens (fields) / " + scenario, new Wrong(null, null));
			// no lastTimestamp, no firstTimestamp: the creation, whole seconds
			wrong.put("Fluent Bit (fields) / " + scenario, new Wrong(null,
					matrix.core.get(scenario).getMetadata().getCreationTimestamp().toInstant()));
		});
		assertWrongExactly(matrix, wrong);
	}

	/**
	 * What a wrong cell shows: the count ({@code null}: none) and the time ({@code null}: none), exactly, or within
	 * 2 s when {@code approximate} (an age printed in whole seconds).
	 */
	record Wrong(Integer count, Instant time, boolean approximate) {

		Wrong(Integer count, Instant time) {
			this(count, time, false);
		}

		static Wrong around(Integer count, Instant time) {
			return new Wrong(count, time, true);
		}

	}

	/** Every cell keyed {@code reader / scenario} in {@code wrong} is wrong and shows that; every other is right. */
	private static void assertWrongExactly(Matrix matrix, Map<String, Wrong> wrong) {
		List<String> keys = matrix.cells.stream().map((c) -> c.reader + " / " + c.scenario).toList();
		assertThat(keys).as("the expected wrong cells are in the matrix").containsAll(wrong.keySet());
		for (Cell cell : matrix.cells) {
			Wrong expected = wrong.get(cell.reader + " / " + cell.scenario);
			if (expected == null) {
				assertThat(cell.right()).as(cell.toString()).isTrue();
				continue;
			}
			assertThat(cell.right()).as(cell.toString()).isFalse();
			assertThat(cell.shown.count()).as(cell.toString()).isEqualTo(expected.count());
			if (expected.time() == null) {
				assertThat(cell.shown.lastSeen()).as(cell.toString()).isNull();
			}
			else if (expected.approximate()) {
				assertThat(cell.shown.lastSeen()).as(cell.toString()).isNotNull();
				assertThat(Duration.between(expected.time(), cell.shown.lastSeen()).abs()).as(cell.toString())
					.isLessThanOrEqualTo(Duration.ofSeconds(2));
			}
			else {
				assertThat(cell.shown.lastSeen()).as(cell.toString()).isEqualTo(expected.time());
			}
		}
	}

	/**
	 * The readers' shape keeps the API server's validation of Events with an {@code eventTime}: a message of 1024
	 * UTF-8 bytes gets one, 1025 bytes or a component that is no qualified name are written as client-go writes them,
	 * and nothing is refused.
	 */
	@Test
	void readersShapeWritesWhatTheValidationOfEventTimeWouldRefuseWithoutIt() throws Exception {
		ApiClient client = this.cluster.adminClient();
		CoreV1Api admin = new CoreV1Api(client);
		String fits = "é".repeat(512);
		String tooLong = "é".repeat(512) + "x";
		runner(client, TickingClock.fixed(Instant.now()), List.of("kubeevents.sink.api=auto")).run((context) -> {
			EventRecorder recorder = context.getBean(EventRecorder.class);
			occur(recorder, "single", fits);
			occur(recorder, "repeated", tooLong);
			awaiting().until(() -> ItSupport.events(admin, this.ns).size() == 2);
			assertThat(ItSupport.sinkStats(context).failed()).isZero();
		});
		runner(client, TickingClock.fixed(Instant.now()), List.of("kubeevents.sink.api=auto",
				"kubeevents.component=My Controller")).run((context) -> {
			occur(context.getBean(EventRecorder.class), "paused", "short");
			awaiting().until(() -> ItSupport.events(admin, this.ns).size() == 3);
		});
		Map<String, CoreV1Event> byObject = new LinkedHashMap<>();
		ItSupport.events(admin, this.ns).forEach((e) -> byObject.put(e.getInvolvedObject().getName(), e));
		assertThat(byObject.get("single").getEventTime()).as("1024 bytes").isNotNull();
		assertThat(byObject.get("single").getAction()).isEqualTo(REASON);
		assertThat(byObject.get("repeated").getEventTime()).as("1025 bytes").isNull();
		assertThat(byObject.get("repeated").getMessage()).isEqualTo(tooLong);
		assertThat(byObject.get("paused").getEventTime()).as("component 'My Controller'").isNull();
		assertThat(byObject.get("paused").getReportingComponent()).isEqualTo("My Controller");
	}

	/** Readers trust the recorder's clock: one ahead of the API server's is warned, with the skew it certainly has. */
	@Test
	void aRecorderClockAheadOfTheApiServersIsWarned() {
		ApiClient client = this.cluster.adminClient();
		CoreV1Api admin = new CoreV1Api(client);
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.WARN)) {
			runner(client, TickingClock.fixed(Instant.now().plusSeconds(30)), List.of()).run((context) -> {
				occur(context.getBean(EventRecorder.class), "single", "m");
				awaiting().until(() -> ItSupport.events(admin, this.ns).size() == 1);
				awaiting().until(() -> log.warnings().stream().anyMatch((w) -> w.startsWith("The recorder's clock")));
			});
			assertThat(log.warnings()).filteredOn((w) -> w.startsWith("The recorder's clock"))
				.singleElement()
				.satisfies((w) -> assertThat(w).matches("The recorder's clock is at least 2[89]\\d{3} ms ahead of the API"
						+ " server's\\. .*"));
		}
	}

	private void occur(EventRecorder recorder, String name, String message) {
		recorder.about(new InvolvedObject("ConfigMap", "v1", this.ns, name, this.uids.get(name), null, null))
			.normal(REASON, "%s", message);
	}

	/**
	 * Records the timeline with {@code properties}, reads every reader, prints the matrix to
	 * {@code target/readers/<name>.md} and checks the API written.
	 */
	private Matrix recordAndCheck(String name, String title, String api, String... properties) throws Exception {
		Matrix matrix = record(title, properties);
		matrix.write(name);
		assertThat(matrix.api).isEqualTo(api);
		return matrix;
	}

	private Matrix record(String title, String... properties) throws Exception {
		ApiClient client = this.cluster.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);
		try (Readers.OtelReceiver otel = Readers.OtelReceiver.start(this.kubeconfig, this.ns, Duration.ofMinutes(5))) {
			Instant t0 = Instant.now().plusSeconds(1);
			Matrix matrix = new Matrix(title, t0);
			TickingClock clock = TickingClock.fixed(t0);
			List<String> common = new ArrayList<>(List.of(properties));
			common.add("kubeevents.sink.writers=1");
			offAPod(client, clock, common).run((first) -> {
				matrix.api = snapshot(first).sinks().get(0).api();
				EventRecorder recorder = first.getBean(EventRecorder.class);
				for (int i = 0; i < 7; i++) {
					if (i == 0) {
						occur(recorder, "single");
					}
					occur(recorder, "repeated");
					if (i <= 2) {
						occur(recorder, "paused");
					}
					clock.advance(Duration.ofSeconds(1));
				}
				clock.advance(Duration.ofSeconds(5));
				occur(recorder, "paused");
				marker(recorder, "marker-1");
				clock.advance(Duration.ofSeconds(1));
				List<String> deterministic = new ArrayList<>(common);
				deterministic.add("kubeevents.sink.deterministic-names=true");
				offAPod(client, clock, deterministic).run((before) -> {
					EventRecorder restarting = before.getBean(EventRecorder.class);
					for (int i = 0; i < 3; i++) {
						occur(restarting, "restarted");
						clock.advance(Duration.ofSeconds(1));
					}
					marker(restarting, "marker-2");
				});
				offAPod(client, clock, deterministic).run((after) -> {
					EventRecorder restarted = after.getBean(EventRecorder.class);
					occur(restarted, "restarted");
					clock.advance(Duration.ofSeconds(1));
					occur(restarted, "restarted");
					marker(restarted, "marker-3");
					// every write the API server took is one watch notification, so one record of the receiver
					awaiting().until(() -> otel.records().size() >= writes(http));
					Instant last = t0.plusSeconds(17);
					awaiting().atMost(Duration.ofSeconds(30)).until(() -> Instant.now().isAfter(last.plusMillis(1500)));
					read(matrix, otel);
				});
			});
			return matrix;
		}
	}

	private static ApplicationContextRunner runner(ApiClient client, TickingClock clock, List<String> properties) {
		return starter(client, properties.toArray(String[]::new))
			.withBean(EventBroadcasterCustomizer.class, () -> (builder) -> builder.clock(clock));
	}

	/** {@link #runner} off a pod: no host configured, no {@code POD_NAME} or {@code HOSTNAME}. */
	private static ApplicationContextRunner offAPod(ApiClient client, TickingClock clock, List<String> properties) {
		return ItSupport.starterOffAPod(client, properties.toArray(String[]::new))
			.withBean(EventBroadcasterCustomizer.class, () -> (builder) -> builder.clock(clock));
	}

	private void occur(EventRecorder recorder, String name) {
		recorder.about(new InvolvedObject("ConfigMap", "v1", this.ns, name, this.uids.get(name), null, null))
			.normal(REASON, "Probe of %s succeeded", name);
	}

	/** A marker about another object; with one writer, once it is on the server so is everything before it. */
	private void marker(EventRecorder recorder, String name) {
		recorder.about(new InvolvedObject("ConfigMap", "v1", this.ns, name, "uid-" + name, null, null)).normal("Marker", "marker");
		CoreV1Api admin = new CoreV1Api(this.cluster.adminClient());
		awaiting().until(() -> !ItSupport.events(admin, this.ns, "involvedObject.name=" + name).isEmpty());
	}

	private static long writes(HttpExchangeLog http) {
		return http.exchanges()
			.stream()
			.filter((e) -> e.path().contains("/events") && (e.method().equals("POST") || e.method().equals("PATCH"))
					&& e.code() >= 200 && e.code() < 300)
			.count();
	}

	private void read(Matrix matrix, Readers.OtelReceiver otel) throws ApiException, IOException {
		Instant readAt = Instant.now();
		String table = Readers.kubectl(this.kubeconfig, "events", "-n", this.ns);
		Instant tableReadAt = Instant.now();
		JsonObject serverTable = Readers.serverTable(this.cluster.adminClient(), this.ns);
		Map<String, CoreV1Event> core = byObject(
				new CoreV1Api(this.cluster.adminClient()).listNamespacedEvent(this.ns).execute().getItems(),
				CoreV1Event::getReason, (e) -> e.getInvolvedObject().getName());
		Map<String, EventsV1Event> eventsV1 = byObject(
				new EventsV1Api(this.cluster.adminClient()).listNamespacedEvent(this.ns).execute().getItems(),
				EventsV1Event::getReason, (e) -> e.getRegarding().getName());
		matrix.core.putAll(core);
		for (String name : EXPECTED.keySet()) {
			matrix.add("kubectl events", name,
					Readers.kubectlCell(Readers.eventsRow(table, "ConfigMap/" + name, REASON), readAt), 2);
			Instant describedAt = Instant.now();
			String describe = Readers.kubectl(this.kubeconfig, "describe", "configmap", name, "-n", this.ns);
			matrix.add("kubectl describe", name, Readers.kubectlCell(Readers.describeRow(describe, REASON), describedAt),
					2);
			matrix.add(K9S, name, Readers.tableRow(serverTable, "configmap/" + name, REASON, tableReadAt), 2);
			matrix.add("OTel k8seventsreceiver", name, otel.latest(name, REASON), 1);
			CoreV1Event event = core.get(name);
			Shown lastTimestampFirst = lastTimestampFirst(event);
			matrix.add("Alloy (fields)", name, lastTimestampFirst, 1);
			matrix.add("event exporter, updates (fields)", name, lastTimestampFirst, 1);
			matrix.add("Headlamp (fields)", name, headlampCore(event), 1);
			matrix.add("Kubernetes Dashboard (fields)", name, dashboard(event), 1);
			matrix.add("Freelens (fields)", name, freelens(event), 1);
			matrix.add("Fluent Bit (fields)", name, fluentBit(event), 1);
			matrix.add("Elastic Metricbeat (fields)", name, metricbeat(event), 1);
			matrix.add("Datadog (fields)", name, datadog(event), 1);
			matrix.addTimeOnly("kubernetes-mcp-server (fields)", name, mcpServer(event), 1);
			EventsV1Event view = eventsV1.get(name);
			matrix.add("OTel #50962 (fields)", name, otel50962(view), 1);
			matrix.add("Headlamp #5922 (fields)", name, headlamp(view), 1);
			matrix.add("Vector #24448 (fields)", name, vector(view), 1);
			matrix.add("GKE event-exporter #1034 (fields)", name, gkeExporter(view), 1);
		}
	}

	/** The Events about each object, by the object's name, of this test's reason. */
	private static <E> Map<String, E> byObject(List<E> events, Function<E, String> reason, Function<E, String> object) {
		Map<String, E> result = new LinkedHashMap<>();
		events.stream().filter((e) -> REASON.equals(reason.apply(e))).forEach((e) -> result.put(object.apply(e), e));
		return result;
	}

	/**
	 * What the core/v1 readers that prefer {@code lastTimestamp} show: Grafana Alloy's
	 * {@code loki.source.kubernetes_events}, and kubernetes-event-exporter with update handling (the PR branch; the
	 * released exporter exports only the first record of each Event). Time {@code lastTimestamp}, else
	 * {@code eventTime}; the count from {@code count}, none when 0.
	 */
	static Shown lastTimestampFirst(CoreV1Event event) {
		OffsetDateTime time = (event.getLastTimestamp() != null) ? event.getLastTimestamp() : event.getEventTime();
		return new Shown(positive(event.getCount()), instant(time));
	}

	/**
	 * OpenTelemetry collector-contrib PR #50962's events.k8s.io/v1 reading: count {@code series.count} (1 without a
	 * series); time {@code series.lastObservedTime}, else {@code eventTime}.
	 */
	static Shown otel50962(EventsV1Event event) {
		if (event.getSeries() != null) {
			return new Shown(event.getSeries().getCount(), instant(event.getSeries().getLastObservedTime()));
		}
		return new Shown(1, instant(event.getEventTime()));
	}

	/**
	 * Headlamp #5922's events.k8s.io/v1 reading ({@code frontend/src/lib/k8s/eventV2.ts} @ {@code 64a13896}, PR
	 * open): count {@code series.count}, else {@code count}, a field events.k8s.io/v1 does not have, so without a
	 * series the events list shows none and Diagnostics falls back to 1; the model shows Diagnostics' 1. Time
	 * {@code series.lastObservedTime}, else {@code deprecatedLastTimestamp}, else {@code eventTime}, else
	 * {@code deprecatedFirstTimestamp}, else the creation.
	 */
	static Shown headlamp(EventsV1Event event) {
		if (event.getSeries() != null) {
			return new Shown(event.getSeries().getCount(), instant(event.getSeries().getLastObservedTime()));
		}
		return new Shown(1, first(event.getDeprecatedLastTimestamp(), event.getEventTime(),
				event.getDeprecatedFirstTimestamp(), event.getMetadata().getCreationTimestamp()));
	}

	/**
	 * Headlamp's core/v1 reading ({@code frontend/src/lib/k8s/event.ts} @ {@code 44a912b5}): count
	 * {@code series.count}, else {@code count} (JSON: absent when 0, so none); time {@code series.lastObservedTime},
	 * else {@code lastTimestamp}, else {@code eventTime}, else {@code firstTimestamp}, else the creation.
	 */
	static Shown headlampCore(CoreV1Event event) {
		if (event.getSeries() != null) {
			return new Shown(event.getSeries().getCount(), instant(event.getSeries().getLastObservedTime()));
		}
		return new Shown(positive(event.getCount()), first(event.getLastTimestamp(), event.getEventTime(),
				event.getFirstTimestamp(), event.getMetadata().getCreationTimestamp()));
	}

	/**
	 * The Kubernetes Dashboard, archived in January 2026 ({@code modules/api/pkg/resource/event/common.go}): count
	 * {@code count} (a Go int: 0 is shown as 0); time {@code lastTimestamp}, else {@code firstTimestamp}, else
	 * {@code eventTime}.
	 */
	static Shown dashboard(CoreV1Event event) {
		return new Shown(goInt(event.getCount()),
				first(event.getLastTimestamp(), event.getFirstTimestamp(), event.getEventTime()));
	}

	/**
	 * Freelens / OpenLens ({@code packages/kube-object/src/specifics/events.ts} and
	 * {@code packages/core/src/renderer/components/events/{events.tsx,store.ts}}): count {@code count} (JSON:
	 * absent when 0, so none); time {@code lastTimestamp} only, blank without it. An object's page lists the Events
	 * whose {@code involvedObject.uid} is the object's, so an Event without a uid shows nothing there.
	 */
	static Shown freelens(CoreV1Event event) {
		String uid = event.getInvolvedObject().getUid();
		if (uid == null || uid.isEmpty()) {
			return new Shown(null, null);
		}
		return new Shown(positive(event.getCount()), instant(event.getLastTimestamp()));
	}

	/**
	 * Fluent Bit's {@code in_kubernetes_events} ({@code plugins/in_kubernetes_events/kubernetes_events.c} @
	 * {@code c473bd9f}): the record's body is the whole object, so its count is {@code count} (JSON: absent when 0);
	 * its time {@code lastTimestamp}, else {@code firstTimestamp}, else {@code metadata.creationTimestamp}, in whole
	 * seconds. {@code eventTime} and {@code series} are never read.
	 */
	static Shown fluentBit(CoreV1Event event) {
		Instant time = first(event.getLastTimestamp(), event.getFirstTimestamp(),
				event.getMetadata().getCreationTimestamp());
		return new Shown(positive(event.getCount()), (time != null) ? time.truncatedTo(ChronoUnit.SECONDS) : null);
	}

	/**
	 * Elastic Metricbeat's {@code kubernetes.event} metricset ({@code metricbeat/module/kubernetes/event/event.go}
	 * @ {@code 353f11c4}): count {@code count} (a Go int: 0 is shown as 0); last occurrence {@code lastTimestamp}.
	 */
	static Shown metricbeat(CoreV1Event event) {
		return new Shown(goInt(event.getCount()), instant(event.getLastTimestamp()));
	}

	/**
	 * The Datadog cluster agent's unbundled Events
	 * ({@code pkg/collector/corechecks/cluster/kubernetesapiserver/unbundled_events.go}): count {@code count} (a Go
	 * int: 0 is shown as 0); time {@code lastTimestamp}, else {@code eventTime}. It keys its aggregation on
	 * {@code involvedObject.uid}, which every Event here has.
	 */
	static Shown datadog(CoreV1Event event) {
		return new Shown(goInt(event.getCount()), first(event.getLastTimestamp(), event.getEventTime()));
	}

	/**
	 * kubernetes-mcp-server's {@code events_list} (containers/kubernetes-mcp-server, {@code EventsList}; #346): it
	 * shows no count, so its cell judges the time only. Time {@code eventTime}; {@code series.lastObservedTime} only
	 * when {@code eventTime} is zero; then {@code lastTimestamp} when {@code count > 1}; then
	 * {@code firstTimestamp}.
	 */
	static Shown mcpServer(CoreV1Event event) {
		Instant time = instant(event.getEventTime());
		if (time == null && event.getSeries() != null) {
			time = instant(event.getSeries().getLastObservedTime());
		}
		if (time == null && event.getCount() != null && event.getCount() > 1) {
			time = instant(event.getLastTimestamp());
		}
		if (time == null) {
			time = instant(event.getFirstTimestamp());
		}
		return new Shown(null, time);
	}

	/**
	 * Vector's {@code kubernetes_events} source (PR vectordotdev/vector#24448, open;
	 * {@code src/sources/kubernetes_events/source.rs}), events.k8s.io/v1: time {@code series.lastObservedTime}, else
	 * {@code eventTime}, else {@code deprecatedLastTimestamp}, else {@code deprecatedFirstTimestamp}, else the
	 * creation. It extracts no count: the raw event it emits carries {@code series} and {@code deprecatedCount}, so
	 * the model's count is {@code series.count}, else {@code deprecatedCount} (JSON: absent when 0, so none).
	 */
	static Shown vector(EventsV1Event event) {
		if (event.getSeries() != null) {
			return new Shown(event.getSeries().getCount(), instant(event.getSeries().getLastObservedTime()));
		}
		return new Shown(positive(event.getDeprecatedCount()), first(event.getEventTime(),
				event.getDeprecatedLastTimestamp(), event.getDeprecatedFirstTimestamp(),
				event.getMetadata().getCreationTimestamp()));
	}

	/**
	 * The GKE event-exporter with PR GoogleCloudPlatform/k8s-stackdriver#1034 (open), which reads events.k8s.io/v1
	 * when it is served ({@code event-exporter/kubernetes/watchers/events/converter.go}): count
	 * {@code deprecatedCount}, else (when 0) {@code series.count}, a Go int (0 is shown as 0); time
	 * {@code deprecatedLastTimestamp}, else {@code series.lastObservedTime}, else {@code eventTime}.
	 */
	static Shown gkeExporter(EventsV1Event event) {
		int count = goInt(event.getDeprecatedCount());
		if (count == 0 && event.getSeries() != null) {
			count = event.getSeries().getCount();
		}
		return new Shown(count, first(event.getDeprecatedLastTimestamp(),
				(event.getSeries() != null) ? event.getSeries().getLastObservedTime() : null, event.getEventTime()));
	}

	/** The first of {@code times} that is set (not {@code null}, not the zero time), as an instant. */
	private static Instant first(OffsetDateTime... times) {
		for (OffsetDateTime time : times) {
			Instant instant = instant(time);
			if (instant != null) {
				return instant;
			}
		}
		return null;
	}

	/** A count as a Go reader's typed field holds it: absent is 0. */
	private static int goInt(Integer count) {
		return (count != null) ? count : 0;
	}

	private static Integer positive(Integer count) {
		return (count != null && count > 0) ? count : null;
	}

	private static Instant instant(OffsetDateTime time) {
		return (time != null && time.toInstant().getEpochSecond() > 0) ? time.toInstant() : null;
	}

	/**
	 * One reader × scenario: what it shows, and whether that is right. A reader that shows no count by design
	 * ({@code judgesCount} false: kubernetes-mcp-server) is right when its time is.
	 */
	record Cell(String reader, String scenario, Shown shown, int count, Instant last, int toleranceSeconds,
			boolean judgesCount) {

		boolean right() {
			return (!this.judgesCount || (this.shown.count() != null && this.shown.count() == this.count))
					&& this.shown.lastSeen() != null && Duration.between(this.last, this.shown.lastSeen())
						.abs()
						.compareTo(Duration.ofSeconds(this.toleranceSeconds)) <= 0;
		}

		@Override
		public String toString() {
			return this.reader + " / " + this.scenario + ": shows " + this.shown + "; the truth is x" + this.count
					+ ", " + this.last + (this.judgesCount ? "" : " (time only)");
		}

	}

	/** The reader matrix of one write shape. */
	static final class Matrix {

		final String title;

		final Instant t0;

		final List<Cell> cells = new ArrayList<>();

		/** The stored Events as the readers read them (core/v1), by object name. */
		final Map<String, CoreV1Event> core = new LinkedHashMap<>();

		volatile String api;

		Matrix(String title, Instant t0) {
			this.title = title;
			this.t0 = t0;
		}

		void add(String reader, String scenario, Shown shown, int toleranceSeconds) {
			add(reader, scenario, shown, toleranceSeconds, true);
		}

		/** A reader that shows no count: its cell judges the time only. */
		void addTimeOnly(String reader, String scenario, Shown shown, int toleranceSeconds) {
			add(reader, scenario, shown, toleranceSeconds, false);
		}

		private void add(String reader, String scenario, Shown shown, int toleranceSeconds, boolean judgesCount) {
			int[] expected = EXPECTED.get(scenario);
			this.cells.add(new Cell(reader, scenario, shown, expected[0], this.t0.plusSeconds(expected[1]),
					toleranceSeconds, judgesCount));
		}

		Cell cell(String reader, String scenario) {
			return this.cells.stream()
				.filter((c) -> c.reader.equals(reader) && c.scenario.equals(scenario))
				.findFirst()
				.orElseThrow();
		}

		/** Prints the matrix and writes it to {@code target/readers/<name>.md}. */
		void write(String name) throws IOException {
			StringBuilder out = new StringBuilder("### " + this.title + " (writes " + this.api + ")\n\n| reader |");
			for (String scenario : EXPECTED.keySet()) {
				out.append(' ').append(scenario).append(" (x").append(EXPECTED.get(scenario)[0]).append(") |");
			}
			out.append("\n|---|").append("---|".repeat(EXPECTED.size())).append('\n');
			Map<String, List<Cell>> byReader = new LinkedHashMap<>();
			this.cells.forEach((c) -> byReader.computeIfAbsent(c.reader, (k) -> new ArrayList<>()).add(c));
			Function<Cell, String> text = (c) -> (c.right() ? "✔ " : "✘ ")
					+ (!c.judgesCount ? "–" : (c.shown.count() != null) ? "x" + c.shown.count() : "no count") + ", "
					+ ((c.shown.lastSeen() != null)
							? String.format("%+.1f s", Duration.between(c.last, c.shown.lastSeen()).toMillis() / 1000.0)
							: "no time");
			byReader.forEach((reader, cells) -> {
				out.append("| ").append(reader).append(" |");
				cells.forEach((c) -> out.append(' ').append(text.apply(c)).append(" |"));
				out.append('\n');
			});
			System.out.println(out);
			Path dir = Path.of("target", "readers");
			Files.createDirectories(dir);
			Files.writeString(dir.resolve(name + ".md"), out);
		}

	}

}
