package io.github.kubeevents.it;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.github.kubeevents.DocOutputs;
import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.health.KubeEventsHealthIndicator;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.it.HttpExchangeLog.Exchange;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;
import io.github.kubeevents.test.cluster.LocalControlPlane;
import io.github.kubeevents.test.cluster.RequiresCapability;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.context.ApplicationContext;

import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.dropped;
import static io.github.kubeevents.it.ItSupport.drops;
import static io.github.kubeevents.it.ItSupport.events;
import static io.github.kubeevents.it.ItSupport.health;
import static io.github.kubeevents.it.ItSupport.sinkStats;
import static io.github.kubeevents.it.ItSupport.snapshot;
import static io.github.kubeevents.it.ItSupport.starterWithHealth;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 36 item 1: the {@code kubeevents} health follows the writes, for each class of failure against the real API
 * server, through the starter with its health auto-configuration: a port nothing listens on (the retries used up),
 * the API server stopped (connections refused; retried, or given up after fewer failures than
 * {@code failures-in-a-row}) and the API server frozen with SIGSTOP (requests time out). Each case turns the health
 * {@code DEGRADED}, naming the server (host:port) and the error, within 10 s of the first {@code retries_exhausted}
 * where a write is given up, and, where the server comes back, {@code UP} again at the next written event. The
 * measured times ("time to turn", "time back to UP") are printed with the prefix {@code [write-health-it]}.
 *
 * <p>A control plane of its own: the API server is stopped and frozen here.
 */
@WithTestCluster(isolated = true)
@RequiresCapability({ Capability.STOP_API_SERVER, Capability.FREEZE_API_SERVER })
class WriteHealthIT {

	/** The bound: DEGRADED within 10 s of the first {@code retries_exhausted} against an unreachable server. */
	private static final Duration DEGRADED_AFTER_GIVEN_UP = Duration.ofSeconds(10);

	/** A port nothing listens on: every connection is refused at once. */
	private static final String UNREACHABLE = "https://127.0.0.1:1";

	/** How often the health is sampled while a time is measured. */
	private static final Duration SAMPLE = Duration.ofMillis(20);

	private LocalControlPlane cluster;

	private ItSupport.Fixture it;

	/** The API server as the health shows it: host:port of the cluster's URL. */
	private String server;

	@BeforeEach
	void setUp(LocalControlPlane cluster) throws Exception {
		this.cluster = cluster;
		this.it = ItSupport.Fixture.of(cluster);
		URI url = URI.create(cluster.baseUrl());
		this.server = url.getHost() + ":" + url.getPort();
	}

	@AfterEach
	void apiServerAnswersAgain() {
		if (this.cluster.isApiServerFrozen()) {
			this.cluster.thawApiServer();
		}
		if (!this.cluster.isApiServerRunning()) {
			this.cluster.startApiServer();
		}
	}

	/**
	 * A wrong port (nothing listens on {@code 127.0.0.1:1}), two attempts a second apart: the event is dropped as
	 * {@code retries_exhausted} after its two attempts, and the health is {@code DEGRADED} within 10 s of that drop
	 * (in fact from the first failed attempt: no event was ever written), naming {@code 127.0.0.1:1} and the
	 * connection failure.
	 */
	@Test
	void aPortNothingListensOnIsDegradedWithinTenSecondsOfTheFirstRetriesExhausted() {
		ApiClient client = this.cluster.adminClient();
		client.setBasePath(UNREACHABLE);
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);
		starterWithHealth(client, "kubeevents.sink.retry.max-attempts=2", "kubeevents.sink.retry.sleep=1s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Health beforeAnyWrite = health(context);
				EventRecorder recorder = context.getBean(EventRecorder.class);

				long recordedAt = System.nanoTime();
				recorder.about(pod("unreachable")).warning("Failed", "written to a port nothing listens on");
				Timeline timeline = new Timeline(context);
				awaiting().pollInterval(SAMPLE).until(() -> timeline.sample() && timeline.givenUpAt != 0);
				awaiting().atMost(DEGRADED_AFTER_GIVEN_UP)
					.pollInterval(SAMPLE)
					.until(() -> timeline.sample() && timeline.degradedAt != 0);
				System.err.println("[write-health-it] wrong port: health before any write " + beforeAnyWrite.getStatus()
						+ "; first failed attempt " + millis(timeline.firstFailureAt - recordedAt)
						+ " ms after the event, retries_exhausted after " + millis(timeline.givenUpAt - recordedAt)
						+ " ms; time to turn: DEGRADED " + millis(timeline.degradedAt - timeline.firstFailureAt)
						+ " ms after the first failure, that is " + relative(timeline.degradedAt - timeline.givenUpAt)
						+ " the first retries_exhausted");

				assertThat(dropped(context, DropReason.RETRIES_EXHAUSTED)).isEqualTo(1);
				assertThat(snapshot(context).dropped()).isEqualTo(drops("retries_exhausted", 1));
				assertThat(sinkStats(context)).isEqualTo(new RecorderStats.Writes(0, 0, 1, 1));
				assertThat(eventRequests(http)).extracting(Exchange::summary)
					.containsExactly("POST transport-failure", "POST transport-failure");

				Health health = health(context);
				Map<String, Object> failure = lastFailure(health);
				String error = (String) failure.get("error");
				assertThat(error).contains("Failed to connect to /127.0.0.1:1");
				assertThat(health.getStatus().getCode()).isEqualTo(KubeEventsHealthIndicator.DEGRADED_CODE);
				assertThat(health.getStatus().getDescription()).isEqualTo("writes to the API server 127.0.0.1:1 fail"
						+ " (2 failed attempt(s) in a row, the last one transport_error): " + error + "; see lastFailure");
				assertThat(health.getDetails()).containsEntry("failedInARow", 2L)
					.doesNotContainKey("lastWritten")
					.containsEntry("dropped", 1L);
				assertThat(failure).containsEntry("api", "core/v1")
					.containsEntry("verb", "create")
					.containsEntry("result", "transport_error")
					.containsEntry("server", "127.0.0.1:1")
					.containsEntry("givenUp", true)
					.containsKey("at");
				// the document's example, as the actuator writes it, with the failure's time pinned
				ObjectNode json = (ObjectNode) JsonMapper.builder().build().valueToTree(health);
				((ObjectNode) json.get("details").get("lastFailure")).put("at", "2026-01-02T03:04:05Z");
				DocOutputs.check("docs/observability.md", "health-degraded", DocOutputs.compactJson(json.toString(), 116));
			});
	}

	/**
	 * The API server stopped after one written event: the retried write's failed attempts turn the health
	 * {@code DEGRADED} at the third in a row (the default of {@code failures-in-a-row}), and it stays so while the
	 * server is down; once the server is back and the retry writes the event, {@code UP} again.
	 */
	@Test
	void aStoppedApiServerIsDegradedWhileDownAndUpAtTheNextWrittenEvent() throws Exception {
		ApiClient client = this.cluster.adminClient();
		starterWithHealth(client, "kubeevents.sink.retry.max-attempts=200", "kubeevents.sink.retry.sleep=500ms")
			.run((context) -> {
				Outage outage = outage(context, this.cluster::stopApiServer, "during-outage");
				Instant firstWritten = outage.firstWritten();
				long stoppedAt = outage.at();
				Timeline timeline = outage.timeline();
				awaiting().pollInterval(SAMPLE).until(() -> timeline.sample() && timeline.degradedAt != 0);
				Health degraded = health(context);
				assertDegraded(degraded, firstWritten);
				assertThat(lastFailure(degraded).get("error")).asString().contains("Failed to connect to /" + this.server);
				// still DEGRADED while down: a few more failed attempts later
				long failed = (Long) degraded.getDetails().get("failedInARow");
				awaiting().until(() -> context.getBean(EventBroadcaster.class).stats().failedInARow() >= failed + 2);
				Health stillDown = health(context);
				assertDegraded(stillDown, firstWritten);
				assertThat(sinkStats(context).created()).isEqualTo(1);

				long restartedAt = System.nanoTime();
				this.cluster.startApiServer();
				awaiting().pollInterval(SAMPLE).until(() -> timeline.sample() && timeline.upAgainAt != 0);
				System.err.println("[write-health-it] stopped API server: first failed attempt "
						+ millis(timeline.firstFailureAt - stoppedAt) + " ms after the stop; time to turn: DEGRADED "
						+ millis(timeline.degradedAt - timeline.firstFailureAt) + " ms after the first failure ("
						+ degraded.getDetails().get("failedInARow") + " failed in a row); "
						+ stillDown.getDetails().get("failedInARow") + " failed in a row before the restart; API server"
						+ " ready in " + this.cluster.lastApiServerStartupTime().toMillis()
						+ " ms; time back to UP: " + millis(timeline.upAgainAt - restartedAt)
						+ " ms after startApiServer() was called");

				assertUpAgain(context, firstWritten, "during-outage");
			});
	}

	/**
	 * The API server stopped after one written event, two attempts per write: the write is given up
	 * ({@code retries_exhausted}) after 2 failed attempts, fewer than {@code failures-in-a-row}, and the health is
	 * {@code DEGRADED} within 10 s of that drop all the same (a write given up since the last written event); with the
	 * server back, the next event is written and it is {@code UP} again.
	 */
	@Test
	void aWriteGivenUpAfterAWrittenEventIsDegradedWithinTenSecondsThoughBelowFailuresInARow() throws Exception {
		ApiClient client = this.cluster.adminClient();
		starterWithHealth(client, "kubeevents.sink.retry.max-attempts=2", "kubeevents.sink.retry.sleep=1s")
			.run((context) -> {
				Outage outage = outage(context, this.cluster::stopApiServer, "given-up");
				Instant firstWritten = outage.firstWritten();
				long stoppedAt = outage.at();
				Timeline timeline = outage.timeline();
				awaiting().pollInterval(SAMPLE).until(() -> timeline.sample() && timeline.givenUpAt != 0);
				awaiting().atMost(DEGRADED_AFTER_GIVEN_UP)
					.pollInterval(SAMPLE)
					.until(() -> timeline.sample() && timeline.degradedAt != 0);
				assertThat(timeline.degradedNotGivenUp).as("DEGRADED by fewer than %d failed attempts, none given up",
						KubeEventsHealthIndicator.FAILURES_IN_A_ROW)
					.isNull();
				Health degraded = health(context);
				Map<String, Object> failure = lastFailure(degraded);
				assertThat(degraded.getStatus().getCode()).isEqualTo(KubeEventsHealthIndicator.DEGRADED_CODE);
				assertThat(degraded.getStatus().getDescription()).isEqualTo("writes to the API server " + this.server
						+ " fail (2 failed attempt(s) in a row, the last one transport_error): " + failure.get("error")
						+ "; see lastFailure");
				assertThat(degraded.getDetails()).containsEntry("failedInARow", 2L)
					.containsEntry("lastWritten", firstWritten)
					.containsEntry("dropped", 1L);
				assertThat(failure).containsEntry("result", "transport_error")
					.containsEntry("server", this.server)
					.containsEntry("givenUp", true);
				assertThat(snapshot(context).dropped()).isEqualTo(drops("retries_exhausted", 1));

				long restartedAt = System.nanoTime();
				this.cluster.startApiServer();
				// nothing retries the given-up write: DEGRADED until an event is written
				assertThat(health(context).getStatus().getCode()).isEqualTo(KubeEventsHealthIndicator.DEGRADED_CODE);
				context.getBean(EventRecorder.class)
					.about(pod("after-restart"))
					.normal("Started", "written once the API server is back");
				awaiting().pollInterval(SAMPLE).until(() -> timeline.sample() && timeline.upAgainAt != 0);
				System.err.println("[write-health-it] write given up after a written event: first failed attempt "
						+ millis(timeline.firstFailureAt - stoppedAt) + " ms after the stop, retries_exhausted "
						+ millis(timeline.givenUpAt - stoppedAt) + " ms after it; time to turn: DEGRADED "
						+ relative(timeline.degradedAt - timeline.givenUpAt) + " the retries_exhausted ("
						+ degraded.getDetails().get("failedInARow") + " failed in a row); time back to UP: "
						+ millis(timeline.upAgainAt - restartedAt) + " ms after startApiServer() was called (ready in "
						+ this.cluster.lastApiServerStartupTime().toMillis() + " ms), with the next event");

				Health up = health(context);
				assertThat(up.getStatus()).isEqualTo(Status.UP);
				assertThat(up.getDetails()).containsEntry("failedInARow", 0L).doesNotContainKey("lastFailure");
				assertThat(sinkStats(context)).isEqualTo(new RecorderStats.Writes(2, 0, 1, 1));
				assertThat(events(this.it.admin(), this.it.ns())).extracting((e) -> e.getInvolvedObject().getName())
					.containsExactlyInAnyOrder("before-outage", "after-restart");
			});
	}

	/**
	 * The API server frozen (SIGSTOP) after one written event, requests limited to 2 s: the timed-out attempts turn
	 * the health {@code DEGRADED}; after the thaw, the retry writes the event and it is {@code UP} again.
	 */
	@Test
	void aFrozenApiServerIsDegradedOnceRequestsTimeOutAndUpAfterTheThaw() throws Exception {
		ApiClient client = this.cluster.adminClient();
		starterWithHealth(client, "kubeevents.sink.request-timeout=2s", "kubeevents.sink.retry.max-attempts=200",
				"kubeevents.sink.retry.sleep=500ms")
			.run((context) -> {
				Outage outage = outage(context, this.cluster::freezeApiServer, "during-freeze");
				Instant firstWritten = outage.firstWritten();
				long frozenAt = outage.at();
				Timeline timeline = outage.timeline();
				awaiting().pollInterval(SAMPLE).until(() -> timeline.sample() && timeline.degradedAt != 0);
				Health degraded = health(context);
				assertDegraded(degraded, firstWritten);
				assertThat(lastFailure(degraded).get("error")).asString().containsIgnoringCase("timeout");
				assertThat(sinkStats(context).created()).isEqualTo(1);
				assertThat(this.cluster.isApiServerFrozen()).isTrue();

				this.cluster.thawApiServer();
				long thawedAt = System.nanoTime();
				awaiting().pollInterval(SAMPLE).until(() -> timeline.sample() && timeline.upAgainAt != 0);
				System.err.println("[write-health-it] frozen API server: first failed attempt (timed out) "
						+ millis(timeline.firstFailureAt - frozenAt) + " ms after the freeze; time to turn: DEGRADED "
						+ millis(timeline.degradedAt - timeline.firstFailureAt) + " ms after the first failure ("
						+ degraded.getDetails().get("failedInARow") + " failed in a row, error '"
						+ lastFailure(degraded).get("error") + "'); time back to UP: "
						+ millis(timeline.upAgainAt - thawedAt) + " ms after the thaw");

				assertUpAgain(context, firstWritten, "during-freeze");
			});
	}

	/**
	 * When the fault began, after one event written while the server answered ({@code firstWritten}), and the
	 * timeline of the event recorded after it.
	 */
	private record Outage(Instant firstWritten, long at, Timeline timeline) {
	}

	/** One event written while the server answers, then {@code fault}, then an event about {@code name}. */
	private Outage outage(AssertableApplicationContext context, Runnable fault, String name) {
		assertThat(context).hasNotFailed();
		EventRecorder recorder = context.getBean(EventRecorder.class);
		Instant firstWritten = writtenBeforeTheOutage(context, recorder);
		fault.run();
		long at = System.nanoTime();
		recorder.about(pod(name)).warning("Failed", "recorded while the API server is stopped or frozen");
		return new Outage(firstWritten, at, new Timeline(context));
	}

	/** One event written while the server answers: UP, with {@code lastWritten}. */
	private Instant writtenBeforeTheOutage(ApplicationContext context, EventRecorder recorder) {
		recorder.about(pod("before-outage")).normal("Started", "written while the API server answers");
		awaiting().until(() -> sinkStats(context).created() == 1);
		Health up = health(context);
		assertThat(up.getStatus()).isEqualTo(Status.UP);
		assertThat(up.getDetails()).containsEntry("failedInARow", 0L).doesNotContainKey("lastFailure");
		return (Instant) up.getDetails().get("lastWritten");
	}

	/** DEGRADED for failed attempts of the transport class, naming the cluster's API server, none given up. */
	private void assertDegraded(Health health, Instant firstWritten) {
		Map<String, Object> failure = lastFailure(health);
		long failedInARow = (Long) health.getDetails().get("failedInARow");
		assertThat(failedInARow).isGreaterThanOrEqualTo(KubeEventsHealthIndicator.FAILURES_IN_A_ROW);
		assertThat(health.getStatus().getCode()).isEqualTo(KubeEventsHealthIndicator.DEGRADED_CODE);
		assertThat(health.getStatus().getDescription()).startsWith("writes to the API server " + this.server + " fail (")
			.contains(" failed attempt(s) in a row, the last one transport_error): " + failure.get("error"))
			.endsWith("; see lastFailure");
		assertThat(health.getDetails()).containsEntry("lastWritten", firstWritten);
		assertThat(failure).containsEntry("api", "core/v1")
			.containsEntry("verb", "create")
			.containsEntry("result", "transport_error")
			.containsEntry("server", this.server)
			.containsEntry("givenUp", false);
	}

	/** UP again: the event recorded during the outage written (once), nothing dropped, no failure left. */
	private void assertUpAgain(ApplicationContext context, Instant firstWritten, String name) throws Exception {
		Health up = health(context);
		assertThat(up.getStatus()).isEqualTo(Status.UP);
		assertThat(up.getDetails()).containsEntry("failedInARow", 0L).doesNotContainKey("lastFailure");
		assertThat((Instant) up.getDetails().get("lastWritten")).isAfter(firstWritten);
		RecorderStats.Writes writes = sinkStats(context);
		assertThat(writes.created()).isEqualTo(2);
		assertThat(writes.failed()).isZero();
		assertThat(snapshot(context).dropped()).isEqualTo(drops());
		List<CoreV1Event> stored = events(this.it.admin(), this.it.ns());
		assertThat(stored).extracting((e) -> e.getInvolvedObject().getName())
			.containsExactlyInAnyOrder("before-outage", name);
		assertThat(stored).allSatisfy((e) -> assertThat(e.getCount()).isEqualTo(1));
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> lastFailure(Health health) {
		Object failure = health.getDetails().get("lastFailure");
		assertThat(failure).as("lastFailure in %s", health).isInstanceOf(Map.class);
		return (Map<String, Object>) failure;
	}

	private static List<Exchange> eventRequests(HttpExchangeLog http) {
		return http.exchanges().stream().filter((e) -> e.path().endsWith("/events")).toList();
	}

	private InvolvedObject pod(String name) {
		return InvolvedObject.of("Pod", "v1", this.it.ns(), name);
	}

	/** {@code "N ms after"} or {@code "N ms before"}. */
	private static String relative(long nanos) {
		return Math.abs(millis(nanos)) + ((nanos >= 0) ? " ms after" : " ms before");
	}

	private static long millis(long nanos) {
		return Duration.ofNanos(nanos).toMillis();
	}

	/**
	 * When the health and the stats first showed each stage, sampled by the awaits' conditions ({@link System#nanoTime()};
	 * 0 until seen): the first failed attempt, the first {@code retries_exhausted} drop, the first {@code DEGRADED}, and
	 * the first {@code UP} after it.
	 */
	private static final class Timeline {

		private final ApplicationContext context;

		long firstFailureAt;

		long givenUpAt;

		long degradedAt;

		long upAgainAt;

		/** The first DEGRADED health sampled whose last failure was not a given-up write, or {@code null}. */
		Health degradedNotGivenUp;

		Timeline(ApplicationContext context) {
			this.context = context;
		}

		/** Samples once; always {@code true}, so that it can lead an await's condition. */
		boolean sample() {
			long now = System.nanoTime();
			RecorderStats stats = this.context.getBean(EventBroadcaster.class).stats();
			Health health = health(this.context);
			String status = health.getStatus().getCode();
			if (this.degradedNotGivenUp == null && KubeEventsHealthIndicator.DEGRADED_CODE.equals(status)
					&& !(health.getDetails().get("lastFailure") instanceof Map<?, ?> failure
							&& Boolean.TRUE.equals(failure.get("givenUp")))) {
				this.degradedNotGivenUp = health;
			}
			if (this.firstFailureAt == 0 && (stats.failedInARow() > 0 || stats.lastFailure() != null)) {
				this.firstFailureAt = now;
			}
			if (this.givenUpAt == 0 && stats.dropped(DropReason.RETRIES_EXHAUSTED.tag()) > 0) {
				this.givenUpAt = now;
			}
			if (this.degradedAt == 0 && KubeEventsHealthIndicator.DEGRADED_CODE.equals(status)) {
				this.degradedAt = now;
			}
			if (this.degradedAt != 0 && this.upAgainAt == 0 && Status.UP.getCode().equals(status)) {
				this.upAgainAt = now;
			}
			return true;
		}

	}

}
