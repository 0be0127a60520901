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
 * events}, {@code kubectl describe} (v1.35, built from its module) and the OpenTelemetry collector's
 * {@code k8seventsreceiver} (run through our driver) report, and what the readers that cannot be built here take
 * from the stored Event by the fields their published code reads (Grafana Alloy, kubernetes-event-exporter with
 * updates, OpenTelemetry PR #50962's events.k8s.io/v1 reading, Headlamp #5922).
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
	 * client-go's core/v1 bodies: right in kubectl and the core/v1 readers; the events.k8s.io/v1 readers that count
	 * by {@code series} alone show 1 (OTel #50962, also with no time; Headlamp #5922, at the right time).
	 */
	@Test
	void clientGoCoreV1IsLostOnlyByTheEventsV1ReadersThatCountBySeries() throws Exception {
		Matrix matrix = recordAndCheck("client-go-core-v1", "client-go shape, core/v1", "core/v1",
				"kubeevents.sink.shape=client-go", "kubeevents.sink.api=core/v1");
		for (Cell cell : matrix.cells) {
			if (cell.reader.startsWith("OTel #50962")) {
				// no series: the implied count 1, and no eventTime to read
				assertThat(cell.shown).as(cell.toString()).isEqualTo(new Shown(1, null));
			}
			else if (cell.reader.startsWith("Headlamp #5922") && !cell.scenario.equals("single")) {
				// no series: Diagnostics' count 1, at deprecatedLastTimestamp
				assertThat(cell.shown).as(cell.toString())
					.isEqualTo(new Shown(1, matrix.t0.plusSeconds(EXPECTED.get(cell.scenario)[1])
						.truncatedTo(ChronoUnit.SECONDS)));
			}
			else {
				assertThat(cell.right()).as(cell.toString()).isTrue();
			}
		}
	}

	/** client-go's events.k8s.io/v1 series (its auto): the core/v1 readers show no count and the first time. */
	@Test
	void clientGoEventsV1ShowsNoCountToTheCoreV1Readers() throws Exception {
		Matrix matrix = recordAndCheck("client-go-events-v1", "client-go shape, api auto", "events.k8s.io/v1",
				"kubeevents.sink.shape=client-go", "kubeevents.sink.api=auto");
		Cell otelRepeated = matrix.cell("OTel k8seventsreceiver", "repeated");
		assertThat(otelRepeated.shown.count()).as(otelRepeated.toString()).isNull();
		assertThat(otelRepeated.shown.lastSeen()).as("the first occurrence's eventTime")
			.isEqualTo(matrix.t0.truncatedTo(ChronoUnit.MICROS));
		Cell kubectlRepeated = matrix.cell("kubectl events", "repeated");
		assertThat(kubectlRepeated.shown.count()).as("the series as written at the second occurrence").isEqualTo(2);
		assertThat(kubectlRepeated.right()).isFalse();
		assertThat(matrix.cell("Alloy (fields)", "repeated").shown.count()).isNull();
		assertThat(matrix.cell("kubectl events", "single").right()).isTrue();
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

	private void read(Matrix matrix, Readers.OtelReceiver otel) throws ApiException {
		Instant readAt = Instant.now();
		String table = Readers.kubectl(this.kubeconfig, "events", "-n", this.ns);
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
			matrix.add("OTel k8seventsreceiver", name, otel.latest(name, REASON), 1);
			Shown lastTimestampFirst = lastTimestampFirst(core.get(name));
			matrix.add("Alloy (fields)", name, lastTimestampFirst, 1);
			matrix.add("event exporter, updates (fields)", name, lastTimestampFirst, 1);
			EventsV1Event view = eventsV1.get(name);
			matrix.add("OTel #50962 (fields)", name, otel50962(view), 1);
			matrix.add("Headlamp #5922 (fields)", name, headlamp(view), 1);
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

	private static Integer positive(Integer count) {
		return (count != null && count > 0) ? count : null;
	}

	private static Instant instant(OffsetDateTime time) {
		return (time != null && time.toInstant().getEpochSecond() > 0) ? time.toInstant() : null;
	}

	/** One reader × scenario: what it shows, and whether that is right. */
	record Cell(String reader, String scenario, Shown shown, int count, Instant last, int toleranceSeconds) {

		boolean right() {
			return this.shown.count() != null && this.shown.count() == this.count && this.shown.lastSeen() != null
					&& Duration.between(this.last, this.shown.lastSeen()).abs().compareTo(
							Duration.ofSeconds(this.toleranceSeconds)) <= 0;
		}

		@Override
		public String toString() {
			return this.reader + " / " + this.scenario + ": shows " + this.shown + "; the truth is x" + this.count
					+ ", " + this.last;
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
			int[] expected = EXPECTED.get(scenario);
			this.cells.add(new Cell(reader, scenario, shown, expected[0], this.t0.plusSeconds(expected[1]),
					toleranceSeconds));
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
					+ ((c.shown.count() != null) ? "x" + c.shown.count() : "no count") + ", "
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
