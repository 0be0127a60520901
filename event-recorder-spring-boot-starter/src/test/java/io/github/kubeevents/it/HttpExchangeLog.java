package io.github.kubeevents.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.openapi.ApiClient;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.Buffer;

/**
 * An OkHttp application interceptor that records every request an {@link ApiClient} sends: method, path,
 * Content-Type (as it goes on the wire: OkHttp's bridge copies the body's media type into the header), request
 * body, the thread that made the request, and either the response code and (for errors) the response body, or the
 * transport failure.
 *
 * <p>One entry per call made by the recorder (OkHttp's own transparent retries happen below an application
 * interceptor), so the list is exactly the sequence of attempts. The SelfSubjectAccessReviews of the recorder's
 * RBAC probe (path {@value #ACCESS_REVIEW_PATH}) are kept apart, in {@link #accessReviews()}, so that
 * {@link #exchanges()} is the sequence of discovery and Event requests alone. Thread-safe.
 */
final class HttpExchangeLog implements Interceptor {

	/** The code recorded when the request failed without an HTTP answer (connection refused, reset, ...). */
	static final int TRANSPORT_FAILURE = -1;

	/** The path of a SelfSubjectAccessReview. */
	static final String ACCESS_REVIEW_PATH = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";

	private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();

	private final List<Exchange> accessReviews = new CopyOnWriteArrayList<>();

	private final List<Exchange> all = new CopyOnWriteArrayList<>();

	/**
	 * Wraps the client's OkHttp client with a new log.
	 * @param client the client to instrument (changed in place)
	 * @return the log
	 */
	static HttpExchangeLog attachTo(ApiClient client) {
		HttpExchangeLog log = new HttpExchangeLog();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(log).build());
		return log;
	}

	/**
	 * Wraps the client's OkHttp client with a new log as a <em>network</em> interceptor: one entry per request that
	 * goes on the wire, OkHttp's own transparent retries (on a new connection, below the caller) included.
	 * @param client the client to instrument (changed in place)
	 * @return the log
	 */
	static HttpExchangeLog attachToNetworkOf(ApiClient client) {
		HttpExchangeLog log = new HttpExchangeLog();
		client.setHttpClient(client.getHttpClient().newBuilder().addNetworkInterceptor(log).build());
		return log;
	}

	@Override
	public Response intercept(Chain chain) throws IOException {
		Request request = chain.request();
		RequestBody body = request.body();
		MediaType mediaType = (body != null) ? body.contentType() : null;
		String contentType = (mediaType != null) ? mediaType.toString() : request.header("Content-Type");
		String requestBody = null;
		if (body != null) {
			Buffer buffer = new Buffer();
			body.writeTo(buffer);
			requestBody = buffer.readString(StandardCharsets.UTF_8);
		}
		String thread = Thread.currentThread().getName();
		long start = System.nanoTime();
		try {
			Response response = chain.proceed(request);
			String errorBody = response.isSuccessful() ? null : response.peekBody(64 * 1024).string();
			Exchange exchange = new Exchange(request.method(), request.url().encodedPath(), contentType, requestBody,
					response.code(), errorBody, null, Duration.ofNanos(System.nanoTime() - start), thread);
			(ACCESS_REVIEW_PATH.equals(request.url().encodedPath()) ? this.accessReviews : this.exchanges).add(exchange);
			this.all.add(exchange);
			return response;
		}
		catch (IOException ex) {
			Exchange exchange = new Exchange(request.method(), request.url().encodedPath(), contentType, requestBody,
					TRANSPORT_FAILURE, null, ex.getClass().getName() + ": " + ex.getMessage(),
					Duration.ofNanos(System.nanoTime() - start), thread);
			this.exchanges.add(exchange);
			this.all.add(exchange);
			throw ex;
		}
	}

	/** @return the exchanges so far, in the order their answers (or failures) arrived */
	List<Exchange> exchanges() {
		return List.copyOf(this.exchanges);
	}

	/** @return the SelfSubjectAccessReviews so far (with their request bodies), in order */
	List<Exchange> accessReviews() {
		return List.copyOf(this.accessReviews);
	}

	/**
	 * Every request so far, the access reviews included (whatever their outcome), in the order their answers (or
	 * failures) arrived.
	 * @return the requests
	 */
	List<Exchange> all() {
		return List.copyOf(this.all);
	}

	/** @return {@code "METHOD code"} of every exchange so far, e.g. {@code [POST 201, PATCH 404]} */
	List<String> summary() {
		return this.exchanges.stream().map(Exchange::summary).toList();
	}

	/** @return the number of exchanges so far */
	int size() {
		return this.exchanges.size();
	}

	/**
	 * One request and its outcome.
	 * @param method the HTTP method
	 * @param path the encoded URL path
	 * @param contentType the request's Content-Type, or {@code null} without a body
	 * @param requestBody the request body as UTF-8, or {@code null}
	 * @param code the HTTP status, or {@link #TRANSPORT_FAILURE}
	 * @param errorBody the body of a non-2xx answer (a Kubernetes Status), else {@code null}
	 * @param failure the transport exception, else {@code null}
	 * @param elapsed how long the call took
	 * @param thread the name of the thread that made the request (an application interceptor runs on the caller's
	 * thread: client-java executes its calls synchronously)
	 */
	record Exchange(String method, String path, String contentType, String requestBody, int code, String errorBody,
			String failure, Duration elapsed, String thread) {

		String summary() {
			return this.method + " " + ((this.code == TRANSPORT_FAILURE) ? "transport-failure" : this.code);
		}

	}

}
