package io.github.kubeevents.sink;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeevents.correlator.EventPatch;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;

/**
 * Writes core/v1 Events through the official Kubernetes Java client ({@code client-java-api}): CREATE with the
 * generated API, repeats as a strategic-merge PATCH: the generated PATCH request with its body and content type
 * replaced by {@code application/strategic-merge-patch+json} (the generated one is refused with 415), which is
 * what client-java's {@code PatchUtils} does, without depending on {@code client-java}.
 *
 * <p>Like client-go's REST layer, a 429 or 5xx answer that carries a {@code Retry-After} header (in seconds) is
 * retried here, up to {@value #MAX_RETRY_AFTER_RETRIES} times, waiting what the server asked for (capped at
 * {@link #MAX_RETRY_AFTER}). Any other HTTP status, and these once the retries are used up, reach the caller.
 *
 * <p>Failures are classified: {@code ApiException} with code 0 (I/O) → {@link EventSinkException.Kind#TRANSPORT};
 * with an HTTP status → {@link EventSinkException.Kind#HTTP_STATUS} (with the Status reason and whether a cause
 * says {@code NamespaceTerminating}); an answer that does not parse as an Event →
 * {@link EventSinkException.Kind#UNEXPECTED_RESPONSE}; a request that cannot be built →
 * {@link EventSinkException.Kind#REQUEST_CONSTRUCTION}.
 *
 * <p>{@link #abort()} cancels the requests in flight (an interrupt does not end a TLS handshake or a read from a
 * frozen server; cancelling the OkHttp call closes its socket) and makes later ones fail at once.
 *
 * <p>Thread-safe (as thread-safe as the {@link ApiClient}).
 */
public final class CoreV1EventSink implements EventSink {

	/** client-go's {@code maxRetries} for responses with Retry-After. */
	public static final int MAX_RETRY_AFTER_RETRIES = 10;

	/** The content type of a strategic-merge patch. */
	public static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";

	private static final MediaType STRATEGIC_MERGE_PATCH_TYPE = MediaType.get(STRATEGIC_MERGE_PATCH);

	/** The longest Retry-After wait honoured. */
	public static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(60);

	private final ApiClient apiClient;

	private final CoreV1Api api;

	private final Sleeper sleeper;

	private final Set<Call> inFlight = ConcurrentHashMap.newKeySet();

	private volatile boolean cancelled;

	private volatile boolean aborted;

	/**
	 * A sink writing through {@code apiClient}, waiting for real on Retry-After (woken by {@link #cancel()}).
	 * @param apiClient the client (its base path, authentication and timeouts are used as they are)
	 */
	public CoreV1EventSink(ApiClient apiClient) {
		this(apiClient, Sleeper.cancellable());
	}

	/**
	 * A sink writing through {@code apiClient}.
	 * @param apiClient the client
	 * @param sleeper waits for Retry-After (interrupting it abandons the request)
	 */
	public CoreV1EventSink(ApiClient apiClient, Sleeper sleeper) {
		this.apiClient = Objects.requireNonNull(apiClient, "apiClient");
		this.api = new CoreV1Api(apiClient);
		this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
	}

	@Override
	public CoreV1Event create(CoreV1Event event) throws EventSinkException {
		String namespace = requireNamespace(event);
		return withRetryAfter(() -> execute(buildCall(() -> this.api.createNamespacedEvent(namespace, event)
			.buildCall(null))), "create");
	}

	@Override
	public CoreV1Event patch(CoreV1Event event, EventPatch patch) throws EventSinkException {
		String namespace = requireNamespace(event);
		String name = event.getMetadata().getName();
		if (name == null || name.isEmpty()) {
			throw EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION,
					"Unable to construct patch request: event has no name", null);
		}
		byte[] body = JSON.serialize(patch.toMap()).getBytes(StandardCharsets.UTF_8);
		return withRetryAfter(() -> {
			Call generated = buildCall(
					() -> this.api.patchNamespacedEvent(name, namespace, new V1Patch("{}")).buildCall(null));
			Request request = generated.request()
				.newBuilder()
				.header("Content-Type", STRATEGIC_MERGE_PATCH)
				.patch(RequestBody.create(body, STRATEGIC_MERGE_PATCH_TYPE))
				.build();
			return execute(this.apiClient.getHttpClient().newCall(request));
		}, "patch");
	}

	private Call buildCall(CallBuilder builder) {
		try {
			return builder.build();
		}
		catch (ApiException | RuntimeException ex) {
			throw new RequestConstructionFailure(ex);
		}
	}

	private CoreV1Event execute(Call call) throws ApiException {
		if (this.aborted) {
			throw new ApiException(new IOException("sink aborted by the shutdown deadline"));
		}
		this.inFlight.add(call);
		try {
			if (this.aborted) {
				call.cancel();
			}
			return this.apiClient.<CoreV1Event>execute(call, CoreV1Event.class).getData();
		}
		finally {
			this.inFlight.remove(call);
		}
	}

	@FunctionalInterface
	private interface CallBuilder {

		Call build() throws ApiException;

	}

	private CoreV1Event withRetryAfter(Attempt attempt, String verb) throws EventSinkException {
		for (int retry = 0;; retry++) {
			try {
				return attempt.execute();
			}
			catch (RequestConstructionFailure ex) {
				throw EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION,
						"Unable to construct " + verb + " request: " + ex.getCause().getMessage(), ex.getCause());
			}
			catch (ApiException ex) {
				Duration wait = retryAfter(ex);
				if (wait == null || retry >= MAX_RETRY_AFTER_RETRIES || this.cancelled) {
					throw classify(ex);
				}
				try {
					this.sleeper.sleep(wait);
				}
				catch (InterruptedException interrupted) {
					Thread.currentThread().interrupt();
					throw classify(ex);
				}
				if (this.cancelled) {
					throw classify(ex);
				}
			}
			catch (RuntimeException ex) {
				throw EventSinkException.of(EventSinkException.Kind.UNEXPECTED_RESPONSE,
						"Unexpected response to " + verb + ": " + ex, ex);
			}
		}
	}

	/** The Retry-After wait of a 429/5xx answer, or {@code null} when it must not be retried here. */
	static Duration retryAfter(ApiException ex) {
		if (ex.getCode() != 429 && ex.getCode() < 500) {
			return null;
		}
		Map<String, List<String>> headers = ex.getResponseHeaders();
		if (headers == null) {
			return null;
		}
		for (Map.Entry<String, List<String>> header : headers.entrySet()) {
			if ("Retry-After".equalsIgnoreCase(header.getKey()) && header.getValue() != null
					&& !header.getValue().isEmpty()) {
				try {
					long seconds = Long.parseLong(header.getValue().get(0).trim());
					if (seconds < 0) {
						return null;
					}
					Duration wait = Duration.ofSeconds(seconds);
					return (wait.compareTo(MAX_RETRY_AFTER) > 0) ? MAX_RETRY_AFTER : wait;
				}
				catch (NumberFormatException notSeconds) {
					return null;
				}
			}
		}
		return null;
	}

	@FunctionalInterface
	private interface Attempt {

		CoreV1Event execute() throws ApiException;

	}

	/**
	 * Stops honouring Retry-After: a wait in progress ends and the throttled call fails with its HTTP status.
	 */
	@Override
	public void cancel() {
		this.cancelled = true;
		this.sleeper.cancel();
	}

	/**
	 * Cancels every request in flight and fails later ones at once (the shutdown deadline passed).
	 */
	@Override
	public void abort() {
		this.aborted = true;
		cancel();
		for (Call call : this.inFlight) {
			call.cancel();
		}
	}

	private static String requireNamespace(CoreV1Event event) throws EventSinkException {
		String namespace = (event.getMetadata() != null) ? event.getMetadata().getNamespace() : null;
		if (namespace == null || namespace.isEmpty()) {
			throw EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION,
					"Unable to construct request: event has no namespace", null);
		}
		return namespace;
	}

	static EventSinkException classify(ApiException ex) {
		if (ex.getCode() == 0) {
			return EventSinkException.of(EventSinkException.Kind.TRANSPORT, "Transport failure: " + describe(ex), ex);
		}
		String reason = "";
		boolean terminating = false;
		String message = ex.getMessage();
		String body = ex.getResponseBody();
		if (body != null && !body.isBlank()) {
			try {
				JsonObject status = JsonParser.parseString(body).getAsJsonObject();
				reason = string(status, "reason");
				String statusMessage = string(status, "message");
				if (!statusMessage.isEmpty()) {
					message = statusMessage;
				}
				JsonObject details = status.has("details") && status.get("details").isJsonObject()
						? status.getAsJsonObject("details") : null;
				if (details != null && details.has("causes") && details.get("causes").isJsonArray()) {
					JsonArray causes = details.getAsJsonArray("causes");
					for (JsonElement cause : causes) {
						if (cause.isJsonObject() && "NamespaceTerminating".equals(string(cause.getAsJsonObject(), "reason"))) {
							terminating = true;
						}
					}
				}
			}
			catch (RuntimeException notStatus) {
				// not a Status body: keep the exception's own message
			}
		}
		return new EventSinkException(EventSinkException.Kind.HTTP_STATUS, ex.getCode(), reason, terminating,
				"HTTP " + ex.getCode() + ((reason.isEmpty()) ? "" : " " + reason) + ": " + message, ex);
	}

	private static String describe(ApiException ex) {
		Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
		return cause.getClass().getSimpleName() + ": " + cause.getMessage();
	}

	private static String string(JsonObject object, String member) {
		JsonElement value = object.get(member);
		return (value != null && value.isJsonPrimitive()) ? value.getAsString() : "";
	}

	private static final class RequestConstructionFailure extends RuntimeException {

		private static final long serialVersionUID = 1L;

		RequestConstructionFailure(Exception cause) {
			super(cause);
		}

	}

}
