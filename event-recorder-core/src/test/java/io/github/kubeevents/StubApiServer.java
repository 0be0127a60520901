package io.github.kubeevents;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;

/**
 * A stand-in for the API server's events endpoints, on the JDK's HTTP server: it records every request and
 * answers with scripted statuses (a stored Event by default). A real API server cannot be made to throttle or to
 * hang on demand.
 */
final class StubApiServer implements AutoCloseable {

	/** The Event every successful answer carries. */
	static final String EVENT = "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"name\",\"namespace\":\"ns\","
			+ "\"resourceVersion\":\"7\"},\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\",\"namespace\":\"ns\"},\"count\":1}";

	/**
	 * One request as received.
	 * @param method the HTTP method
	 * @param path the path
	 * @param contentType the Content-Type header
	 * @param body the body as UTF-8
	 */
	record Request(String method, String path, String contentType, String body) {

		@Override
		public String toString() {
			return this.method + " " + this.path;
		}

	}

	/**
	 * One scripted answer.
	 * @param status the HTTP status
	 * @param retryAfter the Retry-After header, or {@code null}
	 * @param body the body, or {@code null} for the default (an Event for 2xx, a Status otherwise)
	 */
	record Answer(int status, String retryAfter, String body) {

		Answer(int status, String retryAfter) {
			this(status, retryAfter, null);
		}

	}

	private final Deque<Answer> answers = new ArrayDeque<>();

	private final List<Request> requests = new CopyOnWriteArrayList<>();

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "stub-api-server");
		thread.setDaemon(true);
		return thread;
	});

	private volatile CountDownLatch hold;

	StubApiServer() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.setExecutor(this.executor);
		this.server.createContext("/", (exchange) -> {
			byte[] requestBody = exchange.getRequestBody().readAllBytes();
			this.requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
					exchange.getRequestHeaders().getFirst("Content-Type"),
					new String(requestBody, StandardCharsets.UTF_8)));
			CountDownLatch latch = this.hold;
			if (latch != null) {
				try {
					latch.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			Answer answer;
			synchronized (this.answers) {
				answer = this.answers.poll();
			}
			int status = (answer != null) ? answer.status() : 201;
			if (answer != null && answer.retryAfter() != null) {
				exchange.getResponseHeaders().add("Retry-After", answer.retryAfter());
			}
			String body = (answer != null && answer.body() != null) ? answer.body() : (status < 300) ? EVENT
					: "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"TooManyRequests\",\"code\":"
							+ status + "}";
			byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			try {
				exchange.sendResponseHeaders(status, bytes.length);
				try (OutputStream out = exchange.getResponseBody()) {
					out.write(bytes);
				}
			}
			catch (IOException clientGone) {
				// the client cancelled the call
			}
		});
		this.server.start();
	}

	/** Queues answers for the next requests; later requests get 201 with {@link #EVENT}. */
	StubApiServer answer(Answer... answers) {
		synchronized (this.answers) {
			this.answers.addAll(List.of(answers));
		}
		return this;
	}

	/** Holds every answer until the latch opens (a server frozen after reading the request). */
	StubApiServer holdAnswersUntil(CountDownLatch latch) {
		this.hold = latch;
		return this;
	}

	List<Request> requests() {
		return List.copyOf(this.requests);
	}

	String basePath() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	ApiClient client() {
		return new ApiClient().setBasePath(basePath());
	}

	@Override
	public void close() {
		CountDownLatch latch = this.hold;
		if (latch != null) {
			latch.countDown();
		}
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
