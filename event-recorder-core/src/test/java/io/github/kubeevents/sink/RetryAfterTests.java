package io.github.kubeevents.sink;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpServer;
import io.github.kubeevents.TestEvents;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.util.ClientBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Retry-After on 429/5xx, as client-go's REST layer does. A stub HTTP server stands in for the API server
 * because a real one cannot be made to throttle (API Priority and Fairness) on demand.
 */
class RetryAfterTest {

	private record Answer(int status, String retryAfter) {
	}

	private final Deque<Answer> answers = new ArrayDeque<>();

	private final List<String> requests = new CopyOnWriteArrayList<>();

	private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

	private HttpServer server;

	private CoreV1EventSink sink;

	@BeforeEach
	void start() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.createContext("/", (exchange) -> {
			this.requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
			exchange.getRequestBody().readAllBytes();
			Answer answer;
			synchronized (this.answers) {
				answer = this.answers.poll();
			}
			String body;
			int status = (answer != null) ? answer.status() : 201;
			if (answer != null && answer.retryAfter() != null) {
				exchange.getResponseHeaders().add("Retry-After", answer.retryAfter());
			}
			if (status < 300) {
				body = "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"name\",\"namespace\":\"ns\",\"resourceVersion\":\"7\"},"
						+ "\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\",\"namespace\":\"ns\"},\"count\":1}";
			}
			else {
				body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"TooManyRequests\",\"code\":" + status + "}";
			}
			byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(status, bytes.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(bytes);
			}
		});
		this.server.start();
		this.sink = new CoreV1EventSink(
				new ClientBuilder().setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort()).build(),
				this.sleeps::add);
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	private static CoreV1Event event() {
		return TestEvents.event("R", "m", TestEvents.ref("Pod", "p", "ns"));
	}

	@Test
	void throttledRequestIsRepeatedAfterTheServersDelay() throws Exception {
		this.answers.add(new Answer(429, "2"));
		this.answers.add(new Answer(503, "1"));
		CoreV1Event stored = this.sink.create(event());
		assertThat(stored.getMetadata().getResourceVersion()).isEqualTo("7");
		assertThat(this.requests).containsExactly("POST /api/v1/namespaces/ns/events", "POST /api/v1/namespaces/ns/events",
				"POST /api/v1/namespaces/ns/events");
		assertThat(this.sleeps).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(1));
	}

	@Test
	void withoutRetryAfterTheStatusIsReturnedAtOnce() {
		this.answers.add(new Answer(503, null));
		EventSinkException ex = catchThrowableOfType(EventSinkException.class, () -> this.sink.create(event()));
		assertThat(ex.statusCode()).isEqualTo(503);
		assertThat(ex.isRetryable()).isFalse();
		assertThat(this.requests).hasSize(1);
		assertThat(this.sleeps).isEmpty();
	}

	@Test
	void givesUpAfterTenRetriesAndCapsTheWait() {
		for (int i = 0; i < 11; i++) {
			this.answers.add(new Answer(429, "3600"));
		}
		EventSinkException ex = catchThrowableOfType(EventSinkException.class, () -> this.sink.create(event()));
		assertThat(ex.statusCode()).isEqualTo(429);
		assertThat(ex.statusReason()).isEqualTo("TooManyRequests");
		assertThat(this.requests).hasSize(11);
		assertThat(this.sleeps).hasSize(10).containsOnly(Duration.ofSeconds(60));
	}

	@Test
	void clientErrorsAreNeverRepeatedEvenWithRetryAfter() {
		this.answers.add(new Answer(403, "1"));
		EventSinkException ex = catchThrowableOfType(EventSinkException.class, () -> this.sink.create(event()));
		assertThat(ex.statusCode()).isEqualTo(403);
		assertThat(this.requests).hasSize(1);
	}

	@Test
	void patchIsRepeatedToo() throws Exception {
		this.answers.add(new Answer(429, "1"));
		this.answers.add(new Answer(200, null));
		this.sink.patch(event(), new io.github.kubeevents.correlator.EventPatch(2,
				java.time.OffsetDateTime.parse("2026-11-30T12:00:00Z"), "m"));
		assertThat(this.requests).containsExactly("PATCH /api/v1/namespaces/ns/events/name", "PATCH /api/v1/namespaces/ns/events/name");
		assertThat(this.sleeps).containsExactly(Duration.ofSeconds(1));
	}


	@Test
	void cancelEndsAWaitAndFailsTheCallWithItsStatus() {
		CoreV1EventSink[] self = new CoreV1EventSink[1];
		self[0] = new CoreV1EventSink(
				new ClientBuilder().setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort()).build(),
				(duration) -> {
					this.sleeps.add(duration);
					self[0].cancel();
				});
		this.answers.add(new Answer(429, "5"));
		EventSinkException ex = catchThrowableOfType(EventSinkException.class, () -> self[0].create(event()));
		assertThat(ex.statusCode()).isEqualTo(429);
		assertThat(this.requests).hasSize(1);
		assertThat(this.sleeps).containsExactly(Duration.ofSeconds(5));
	}

	@Test
	void cancelWakesTheRealSleeper() throws Exception {
		CoreV1EventSink real = new CoreV1EventSink(
				new ClientBuilder().setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort()).build());
		this.answers.add(new Answer(429, "3600"));
		java.util.concurrent.CompletableFuture<Throwable> call = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
			try {
				real.create(event());
				return null;
			}
			catch (EventSinkException ex) {
				return ex;
			}
		});
		org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> this.requests.size() == 1);
		real.cancel();
		Throwable failure = call.get(10, java.util.concurrent.TimeUnit.SECONDS);
		assertThat(failure).isInstanceOfSatisfying(EventSinkException.class, (ex) -> assertThat(ex.statusCode()).isEqualTo(429));
		assertThat(this.requests).hasSize(1);
	}

}
