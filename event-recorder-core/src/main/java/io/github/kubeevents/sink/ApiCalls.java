package io.github.kubeevents.sink;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import com.google.gson.Gson;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * How the sinks over the official Java client make their requests: a time limit per request (an OkHttp call
 * timeout, which covers connecting, the TLS handshake, writing and reading), strategic-merge PATCH without
 * client-java's {@code PatchUtils}, cancellation of requests in flight at the stop or shutdown deadline, and the
 * classification of answers and failures ({@link EventsClient#read} and {@link EventSinkException#of(ApiException)},
 * which other clients' sinks use too, with the {@code Retry-After} of a 429/5xx answer, which the recorder's
 * retries honour for all of a sink's writers).
 *
 * <p>Requests are built once per write with the generated API (so the client's authentication, base path and
 * default headers apply as usual) and sent on the client's OkHttp client with TCP_NODELAY (OkHttp leaves Nagle's
 * algorithm on, which can stall a small request behind the previous one's); a CREATE is not repeated by OkHttp
 * itself (its {@code retryOnConnectionFailure} repeats a POST whose connection failed after it was sent, unseen: the
 * recorder's own retry then met an AlreadyExists it could not tell from another's Event; it repeats it knowingly),
 * except at once, up to {@value #MAX_UNPROCESSED_REPEATS} times, when the server did not process it (a refused HTTP/2
 * stream, a GOAWAY before the stream began). Answers are read to the end and
 * parsed leniently, like client-go's decoder: the generated models' strict parsing would turn a successful write
 * into an "unexpected response" (and a retry, and a duplicate) as soon as a newer API server adds a field to
 * Event; it also builds a JSON tree of the whole body first, managedFields included.
 *
 * <p>Thread-safe.
 */
final class ApiCalls {

	/** The content type of a strategic-merge patch. */
	static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";

	private static final MediaType STRATEGIC_MERGE_PATCH_TYPE = MediaType.get(STRATEGIC_MERGE_PATCH);

	/** How often a CREATE the server did not process is repeated at once. */
	static final int MAX_UNPROCESSED_REPEATS = 4;

	private final Duration requestTimeout;

	/** A patch body: a null value removes the field, so nulls are written (the client's JSON drops them). */
	private static final Gson PATCH_JSON = JSON.getGson().newBuilder().serializeNulls().create();

	private final OkHttpClient httpClient;

	/** {@link #httpClient} without OkHttp's own repeat of a request whose connection failed, for CREATEs. */
	private final OkHttpClient createClient;

	private final Set<Call> inFlight = ConcurrentHashMap.newKeySet();

	private volatile boolean aborted;

	ApiCalls(ApiClient apiClient, Duration requestTimeout) {
		this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
		OkHttpClient client = apiClient.getHttpClient();
		this.httpClient = client.newBuilder().socketFactory(new NoDelaySocketFactory(client.socketFactory())).build();
		this.createClient = this.httpClient.newBuilder().retryOnConnectionFailure(false).build();
	}

	/** Sends a generated request and reads its answer. */
	<T> T send(Call generated, Class<T> type, String verb) throws EventSinkException {
		return classified(() -> execute(generated.request(), type, verb), verb);
	}

	/**
	 * Sends a generated PATCH request with {@code body} as a strategic-merge patch (the generated request sends
	 * {@code application/json}, which the API server refuses with 415).
	 */
	<T> T sendPatch(Call generated, Map<String, Object> body, Class<T> type) throws EventSinkException {
		return classified(() -> {
			byte[] bytes = PATCH_JSON.toJson(body).getBytes(StandardCharsets.UTF_8);
			Request request = generated.request()
				.newBuilder()
				.header("Content-Type", STRATEGIC_MERGE_PATCH)
				.patch(RequestBody.create(bytes, STRATEGIC_MERGE_PATCH_TYPE))
				.build();
			return execute(request, type, "patch");
		}, "patch");
	}

	private <T> T execute(Request request, Class<T> type, String verb) throws ApiException, EventSinkException {
		boolean create = "POST".equals(request.method());
		for (int repeats = 0;; repeats++) {
			if (this.aborted) {
				throw new ApiException(new IOException("sink aborted by the shutdown deadline"));
			}
			Call call = (create ? this.createClient : this.httpClient).newCall(request);
			if (!this.requestTimeout.isZero()) {
				call.timeout().timeout(this.requestTimeout.toNanos(), TimeUnit.NANOSECONDS);
			}
			this.inFlight.add(call);
			try {
				if (this.aborted) {
					call.cancel();
				}
				try (Response response = call.execute()) {
					// read to the end: an HTTP/2 stream closed before END_STREAM is reset
					String body = (response.body() != null) ? response.body().string() : "";
					return EventsClient.read(verb, response.code(), response.message(), response.headers().toMultimap(),
							body, type);
				}
			}
			catch (IOException ex) {
				// the one recovery of OkHttp's that cannot store an Event twice: the server did not process the
				// stream; as in OkHttp, a second refusal retires the connection, so later repeats use a new one
				if (!create || repeats == MAX_UNPROCESSED_REPEATS || !unprocessed(ex)) {
					throw new ApiException(ex);
				}
			}
			finally {
				this.inFlight.remove(call);
			}
		}
	}

	/**
	 * Whether a request failed before the server processed it: a stream the server refused, or one not begun on an
	 * HTTP/2 connection that was shutting down (a GOAWAY), as OkHttp's own repeat of such requests tells. Read by
	 * name: OkHttp's module does not export {@code okhttp3.internal.http2}.
	 */
	private static boolean unprocessed(IOException failure) {
		String type = failure.getClass().getName();
		return type.equals("okhttp3.internal.http2.ConnectionShutdownException")
				|| (type.equals("okhttp3.internal.http2.StreamResetException")
						&& "stream was reset: REFUSED_STREAM".equals(failure.getMessage()));
	}

	private static <T> T classified(Attempt<T> attempt, String verb) throws EventSinkException {
		try {
			return attempt.execute();
		}
		catch (ApiException ex) {
			throw EventSinkException.of(ex);
		}
		catch (RuntimeException ex) {
			throw EventSinkException.of(EventSinkException.Kind.UNEXPECTED_RESPONSE,
					"Unexpected response to " + verb + ": " + ex, ex);
		}
	}

	/** Cancels every request in flight and fails later ones at once, until {@link #resume()}. */
	void abort() {
		this.aborted = true;
		for (Call call : this.inFlight) {
			call.cancel();
		}
	}

	/** Requests may be made again (the recorder starts again after a stop). */
	void resume() {
		this.aborted = false;
	}

	/** Closes the idle pooled connections (the recorder stopped: e.g. before a checkpoint, no socket stays open). */
	void closeIdleConnections() {
		this.httpClient.connectionPool().evictAll();
	}

	@FunctionalInterface
	private interface Attempt<T> {

		T execute() throws ApiException, EventSinkException;

	}

}
