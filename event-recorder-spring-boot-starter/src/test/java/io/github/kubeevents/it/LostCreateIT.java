package io.github.kubeevents.it;

import java.util.List;

import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.it.HttpExchangeLog.Exchange;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static io.github.kubeevents.it.HttpExchangeLog.TRANSPORT_FAILURE;
import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.drops;
import static io.github.kubeevents.it.ItSupport.events;
import static io.github.kubeevents.it.ItSupport.health;
import static io.github.kubeevents.it.ItSupport.sinkStats;
import static io.github.kubeevents.it.ItSupport.snapshot;
import static io.github.kubeevents.it.ItSupport.starterWithHealth;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 36 item 4: a CREATE that reached the server, whose answer was lost, counts as written. A TCP proxy
 * ({@link AnswerDroppingProxy}) sits between the recorder and the real API server and relays the TLS bytes
 * untouched; while the event's first CREATE is on its way it holds back what the server sends, and the test waits
 * until the server has stored the Event (read directly, not through the proxy). The answer is then lost in one of
 * two ways: the connection breaks (the proxy closes it), or the request times out first. The same CREATE is sent
 * again and answered 409 AlreadyExists for the recorder's own Event, which must count as created, not as
 * {@code rejected_by_server}: the server holds exactly one Event, and the recorder says one was written.
 *
 * <p>Why a proxy on the wire rather than an OkHttp interceptor that throws after {@code chain.proceed()}: the
 * connection really breaks (or stays silent) under the client, so the whole client stack reacts as it would in
 * production, OkHttp's own recovery included (it resends a request whose pooled HTTP/2 connection broke, on a new
 * connection, below the recorder's retries); an interceptor would only simulate the exception the recorder sees, with
 * a healthy connection underneath. A network interceptor ({@code wire}) records every request that goes on the wire,
 * an application interceptor ({@code attempts}) every attempt of the recorder's.
 */
@WithTestCluster
class LostCreateIT {

	private ItSupport.Fixture it;

	@BeforeEach
	void setUp(KubernetesTestCluster cluster) throws ApiException {
		this.it = ItSupport.Fixture.of(cluster);
	}

	/** The connection breaks after the server stored the Event, before its answer reached the client. */
	@Test
	void aCreateWhoseConnectionBrokeBeforeTheAnswerCountsAsWritten() throws Exception {
		try (AnswerDroppingProxy proxy = AnswerDroppingProxy.to(this.it.cluster().baseUrl())) {
			Clients clients = new Clients(proxy);
			clients.starter("kubeevents.sink.retry.sleep=200ms").run((context) -> {
				assertThat(context).hasNotFailed();
				int connections = createWithTheAnswerHeld(context, proxy, clients);
				assertThat(proxy.accepted()).as("the CREATE went over the connection opened at startup")
					.isEqualTo(connections);
				int lost = proxy.dropConnections();

				awaitTheOutcome(context);
				print("connection broken", lost, clients, context, proxy);
				assertWrittenOnce(context, clients);
			});
		}
	}

	/** The answer does not come within the request time limit (2 s); then the connection is closed. */
	@Test
	void aCreateWhoseAnswerCameTooLateCountsAsWritten() throws Exception {
		try (AnswerDroppingProxy proxy = AnswerDroppingProxy.to(this.it.cluster().baseUrl())) {
			Clients clients = new Clients(proxy);
			clients.starter("kubeevents.sink.request-timeout=2s", "kubeevents.sink.retry.sleep=200ms").run((context) -> {
				assertThat(context).hasNotFailed();
				createWithTheAnswerHeld(context, proxy, clients);
				awaiting().until(() -> !eventRequests(clients.attempts).isEmpty());
				// the call timed out (OkHttp cancels it: the interceptor sees "Canceled", the recorder a timeout)
				assertThat(eventRequests(clients.attempts).get(0).summary()).isEqualTo("POST transport-failure");
				// the held connection is useless from here on (part of a TLS stream was kept back): close it
				int lost = proxy.dropConnections();

				awaitTheOutcome(context);
				print("timed out", lost, clients, context, proxy);
				assertWrittenOnce(context, clients);
				assertThat(eventRequests(clients.attempts).get(0).summary()).isEqualTo("POST transport-failure");
				assertThat(sinkStats(context).retried()).isPositive();
			});
		}
	}

	/**
	 * Records the event while the proxy holds the server's answers, and waits until the server stored it.
	 * @return the connections the proxy had accepted before (the startup's RBAC check opened the client's)
	 */
	private int createWithTheAnswerHeld(ApplicationContext context, AnswerDroppingProxy proxy, Clients clients)
			throws ApiException {
		int connections = proxy.accepted();
		assertThat(connections).isPositive();
		proxy.holdAnswers();
		context.getBean(EventRecorder.class)
			.about(InvolvedObject.of("Pod", "v1", this.it.ns(), "web-0"))
			.warning("Failed", "its first answer is lost");
		// the server stored the first attempt; its answer waits in the proxy, the recorder has none
		awaiting().until(() -> events(this.it.admin(), this.it.ns()).size() == 1);
		assertThat(eventRequests(clients.attempts)).isEmpty();
		assertThat(eventRequests(clients.wire)).isEmpty();
		return connections;
	}

	private static void awaitTheOutcome(ApplicationContext context) {
		awaiting().until(() -> sinkStats(context).created() > 0
				|| snapshot(context).dropped().values().stream().mapToLong(Long::longValue).sum() > 0);
	}

	private void print(String how, int lost, Clients clients, ApplicationContext context, AnswerDroppingProxy proxy) {
		List<Exchange> wire = eventRequests(clients.wire);
		System.err.println("[lost-create-it] " + how + ": " + lost + " bytes of the server's answers lost; the recorder's"
				+ " attempts " + summaries(eventRequests(clients.attempts)) + ", requests on the wire "
				+ summaries(wire) + " (the first failed with " + wire.get(0).failure() + "); writes "
				+ sinkStats(context) + "; dropped " + snapshot(context).dropped() + "; connections through the proxy "
				+ proxy.accepted());
	}

	/**
	 * The server holds the one Event; on the wire the CREATE whose answer was lost, then the same CREATE again
	 * answered AlreadyExists (between them, only attempts without an answer); the recorder counts one created Event,
	 * nothing refused or dropped, and its health is UP.
	 */
	private void assertWrittenOnce(ApplicationContext context, Clients clients) throws ApiException {
		List<CoreV1Event> stored = events(this.it.admin(), this.it.ns());
		assertThat(stored).singleElement().satisfies((e) -> {
			assertThat(e.getInvolvedObject().getName()).isEqualTo("web-0");
			assertThat(e.getCount()).isEqualTo(1);
		});
		List<Exchange> wire = eventRequests(clients.wire);
		assertThat(wire).hasSizeGreaterThanOrEqualTo(2);
		assertThat(wire.subList(0, wire.size() - 1)).allSatisfy((e) -> assertThat(e.code()).isEqualTo(TRANSPORT_FAILURE));
		Exchange last = wire.get(wire.size() - 1);
		assertThat(last.summary()).isEqualTo("POST 409");
		assertThat(last.errorBody()).contains("\"reason\":\"AlreadyExists\"");
		assertThat(wire).extracting(Exchange::requestBody).containsOnly(wire.get(0).requestBody());
		assertThat(eventRequests(clients.attempts)).last().extracting(Exchange::summary).isEqualTo("POST 409");

		RecorderStats.Writes writes = sinkStats(context);
		assertThat(writes.created()).as("created, in " + writes).isEqualTo(1);
		assertThat(writes.patched()).isZero();
		assertThat(writes.failed()).as("failed, in " + writes).isZero();
		assertThat(snapshot(context).dropped()).isEqualTo(drops());
		Health health = health(context);
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("failedInARow", 0L)
			.containsKey("lastWritten")
			.doesNotContainKey("lastFailure")
			.doesNotContainKey("lastRejection");
	}

	private static List<Exchange> eventRequests(HttpExchangeLog log) {
		return log.exchanges().stream().filter((e) -> e.path().endsWith("/events")).toList();
	}

	private static List<String> summaries(List<Exchange> exchanges) {
		return exchanges.stream().map(Exchange::summary).toList();
	}

	/** The recorder's client through the proxy, with its two logs. */
	private final class Clients {

		final ApiClient client;

		/** Every attempt of the recorder's (an application interceptor). */
		final HttpExchangeLog attempts;

		/** Every request on the wire, OkHttp's own resends included (a network interceptor). */
		final HttpExchangeLog wire;

		Clients(AnswerDroppingProxy proxy) {
			this.client = LostCreateIT.this.it.cluster().adminClient();
			this.client.setBasePath(proxy.url());
			this.attempts = HttpExchangeLog.attachTo(this.client);
			this.wire = HttpExchangeLog.attachToNetworkOf(this.client);
		}

		ApplicationContextRunner starter(String... properties) {
			return starterWithHealth(this.client, properties);
		}

	}

}
