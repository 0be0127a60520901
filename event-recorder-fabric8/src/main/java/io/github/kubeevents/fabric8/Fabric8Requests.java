package io.github.kubeevents.fabric8;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.RequestConfig;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsClient;
import com.google.gson.Gson;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;

/**
 * How the fabric8 sinks make their requests: on the {@link KubernetesClient}'s own HTTP client (its
 * authentication, TLS, proxy and interceptors, token refresh included), derived once without fabric8's own
 * retries (the recorder retries, with client-go's rules; fabric8 would otherwise repeat a failed request up to ten
 * times inside one attempt), with a time limit per request over the whole exchange, cancellation of the requests
 * in flight by {@link #abort()}, and the answers read and classified by {@link EventsClient#read} and
 * {@link EventSinkException#of(ApiException)}, exactly as the sinks over the official client read theirs.
 *
 * <p>Bodies are client-java models serialised with client-java's {@link JSON}, which is what the official sinks
 * send: the same event gives the same bytes over both clients.
 *
 * <p>Thread-safe.
 */
final class Fabric8Requests {

	/** The content type of a strategic-merge patch. */
	static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";

	private static final Gson PATCH_JSON = JSON.getGson().newBuilder().serializeNulls().create();

	/** The content type of a create, as the official client sends it. */
	static final String JSON_TYPE = "application/json; charset=utf-8";

	private final HttpClient httpClient;

	private final URI masterUrl;

	private final Duration requestTimeout;

	private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();

	private volatile boolean aborted;

	/**
	 * @param client the user's client
	 * @param requestTimeout the time limit of one request; {@link Duration#ZERO} for the client's own
	 */
	Fabric8Requests(KubernetesClient client, Duration requestTimeout) {
		this(withoutRetries(client), masterUrl(client), requestTimeout);
	}

	Fabric8Requests(HttpClient httpClient, URI masterUrl, Duration requestTimeout) {
		this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
		this.masterUrl = Objects.requireNonNull(masterUrl, "masterUrl");
		this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
	}

	/**
	 * The client's HTTP client with its request configuration (impersonation, timeouts) but a retry limit of
	 * zero; it shares the client's connections and is closed with it.
	 */
	static HttpClient withoutRetries(KubernetesClient client) {
		HttpClient http = client.getHttpClient();
		RequestConfig current = (http instanceof Interceptor.RequestTags tags) ? tags.getTag(RequestConfig.class) : null;
		if (current == null) {
			Config config = client.getConfiguration();
			current = config.getRequestConfig();
		}
		RequestConfig noRetries = new RequestConfigBuilder(current).withRequestRetryBackoffLimit(0).build();
		return http.newBuilder().tag(noRetries).build();
	}

	private static URI masterUrl(KubernetesClient client) {
		try {
			return client.getMasterUrl().toURI();
		}
		catch (java.net.URISyntaxException ex) {
			throw new IllegalArgumentException("the client's master URL is not a URI: " + client.getMasterUrl(), ex);
		}
	}

	/** POSTs {@code body} as JSON to {@code path}; the answer as {@code type}. */
	<T> T post(String path, Object body, Class<T> type, String verb) throws EventSinkException {
		String json = JSON.serialize(body);
		return send(verb, type, () -> request(path).post(JSON_TYPE, json.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
	}

	/** PATCHes {@code path} with {@code patch} as a strategic-merge patch; the answer as {@code type}. */
	<T> T patch(String path, Map<String, Object> patch, Class<T> type) throws EventSinkException {
		// a null value removes the field, so nulls are written (the client's JSON drops them)
		String json = PATCH_JSON.toJson(patch);
		return send("patch", type, () -> request(path).method("PATCH", STRATEGIC_MERGE_PATCH, json));
	}

	/** GETs {@code path}; the answer as {@code type}. */
	<T> T get(String path, Class<T> type) throws EventSinkException {
		return send("get", type, () -> request(path));
	}

	private HttpRequest.Builder request(String path) {
		String base = this.masterUrl.toString();
		String url = (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path;
		return this.httpClient.newHttpRequestBuilder().uri(url).header("Accept", "application/json");
	}

	private <T> T send(String verb, Class<T> type, RequestBuilder builder) throws EventSinkException {
		HttpRequest request;
		try {
			request = builder.build().build();
		}
		catch (RuntimeException ex) {
			throw EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION,
					"Unable to construct " + verb + " request: " + ex.getMessage(), ex);
		}
		if (this.aborted) {
			throw transportFailure(new IOException("sink aborted by the shutdown deadline"));
		}
		CompletableFuture<HttpResponse<String>> future = this.httpClient.sendAsync(request, String.class);
		this.inFlight.add(future);
		try {
			if (this.aborted) {
				future.cancel(true);
			}
			HttpResponse<String> response = this.requestTimeout.isZero() ? future.get()
					: future.get(this.requestTimeout.toNanos(), TimeUnit.NANOSECONDS);
			String body = (response.body() != null) ? response.body() : "";
			return EventsClient.read(verb, response.code(), response.message(), response.headers(), body, type);
		}
		catch (TimeoutException ex) {
			future.cancel(true);
			throw transportFailure(new InterruptedIOException("timeout"));
		}
		catch (CancellationException ex) {
			throw transportFailure(new IOException("Canceled"));
		}
		catch (InterruptedException ex) {
			future.cancel(true);
			Thread.currentThread().interrupt();
			throw transportFailure(new InterruptedIOException("interrupted"));
		}
		catch (ExecutionException ex) {
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			throw transportFailure(withEndpoint(cause));
		}
		finally {
			this.inFlight.remove(future);
		}
	}

	/** The failure of a request that got no HTTP answer, as the official client's is classified. */
	private static EventSinkException transportFailure(Throwable cause) {
		return EventSinkException.of(new ApiException(cause));
	}

	/**
	 * The failure itself when it or a cause says what happened; else (the JDK client's {@code ConnectException} has
	 * no message, nor has its {@code ClosedChannelException} cause) one that names the failure and the API server,
	 * so the log says more than {@code ConnectException: null}.
	 */
	private Throwable withEndpoint(Throwable failure) {
		for (Throwable t = failure; t != null; t = (t.getCause() != t) ? t.getCause() : null) {
			if (t.getMessage() != null && !t.getMessage().isBlank()) {
				return failure;
			}
		}
		return new IOException(failure.getClass().getSimpleName() + " (no message) from " + this.masterUrl, failure);
	}

	/** Cancels every request in flight and fails later ones at once, until {@link #resume()}. */
	void abort() {
		this.aborted = true;
		for (CompletableFuture<?> future : this.inFlight) {
			future.cancel(true);
		}
	}

	/** Requests may be made again (the recorder starts again after a stop). */
	void resume() {
		this.aborted = false;
	}

	@FunctionalInterface
	private interface RequestBuilder {

		HttpRequest.Builder build();

	}

}
