package io.github.kubeevents.sink;

import java.time.Duration;

import io.kubernetes.client.openapi.ApiException;
import org.jspecify.annotations.Nullable;

/**
 * A failed sink call, classified the way client-go's recorder classifies errors, which decides between retry
 * and drop.
 *
 * <p>Immutable.
 */
public final class EventSinkException extends Exception {

	private static final long serialVersionUID = 1L;

	/** client-go's {@code maxRetries} for answers with Retry-After. */
	public static final int MAX_RETRY_AFTER_REPEATS = 10;

	/** The longest {@code Retry-After} wait honoured: a longer one is cut to this (60 seconds). */
	public static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(60);

	/** The error classes of client-go's {@code recordEvent}. */
	public enum Kind {

		/** The request could not be built ({@code rest.RequestConstructionError}): dropped, never retried. */
		REQUEST_CONSTRUCTION,

		/**
		 * The server answered with an HTTP error status ({@code errors.StatusError}): dropped, never retried, except
		 * 429 Too Many Requests ({@link EventSinkException#isRetryable()}).
		 */
		HTTP_STATUS,

		/** The server's answer could not be read as an Event ({@code UnexpectedObjectError}): retried. */
		UNEXPECTED_RESPONSE,

		/** The server could not be reached or the connection failed (I/O): retried. */
		TRANSPORT,

		/**
		 * The server answered 429 or 5xx with {@code Retry-After} and still did after the ten waits it asked for
		 * ({@value EventSinkException#MAX_RETRY_AFTER_REPEATS}):
		 * retried on the retry policy, like a transport failure. Differs from client-go deliberately: there such
		 * an answer is a {@code StatusError} and the event is dropped, so with several writers a busy server
		 * would cost several events per ten seconds; here it costs what a refused connection costs.
		 */
		UNAVAILABLE

	}

	private final Kind kind;

	private final int statusCode;

	private final String statusReason;

	private final boolean namespaceTerminating;

	private final @Nullable Duration retryAfter;

	/**
	 * A classified failure.
	 * @param kind the error class
	 * @param statusCode the HTTP status for {@link Kind#HTTP_STATUS} and {@link Kind#UNAVAILABLE}, else 0
	 * @param statusReason the Status reason (e.g. {@code AlreadyExists}), or {@code ""}
	 * @param namespaceTerminating whether a Status cause says the namespace is terminating
	 * @param message the message
	 * @param cause the underlying exception, may be {@code null}
	 */
	public EventSinkException(Kind kind, int statusCode, String statusReason, boolean namespaceTerminating,
			String message, @Nullable Throwable cause) {
		this(kind, statusCode, statusReason, namespaceTerminating, null, message, cause);
	}

	/**
	 * A classified failure that may carry the server's {@code Retry-After}.
	 * @param kind the error class
	 * @param statusCode the HTTP status for {@link Kind#HTTP_STATUS} and {@link Kind#UNAVAILABLE}, else 0
	 * @param statusReason the Status reason (e.g. {@code AlreadyExists}), or {@code ""}
	 * @param namespaceTerminating whether a Status cause says the namespace is terminating
	 * @param retryAfter the wait a 429 or 5xx answer asked for with {@code Retry-After}, else {@code null}; the
	 * recorder then holds back every writer of the sink for that long and repeats the request, up to
	 * {@value #MAX_RETRY_AFTER_REPEATS} times (client-go's REST layer)
	 * @param message the message
	 * @param cause the underlying exception, may be {@code null}
	 */
	public EventSinkException(Kind kind, int statusCode, String statusReason, boolean namespaceTerminating,
			@Nullable Duration retryAfter, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.kind = kind;
		this.statusCode = statusCode;
		this.statusReason = (statusReason != null) ? statusReason : "";
		this.namespaceTerminating = namespaceTerminating;
		this.retryAfter = retryAfter;
	}

	/**
	 * A failure without an HTTP status.
	 * @param kind the error class
	 * @param message the message
	 * @param cause the cause, may be {@code null}
	 * @return the exception
	 */
	public static EventSinkException of(Kind kind, String message, @Nullable Throwable cause) {
		return new EventSinkException(kind, 0, "", false, message, cause);
	}

	/**
	 * The failure a request of the official client ({@code ApiException}) stands for, as the recorder's own sinks
	 * classify it; for sinks over another HTTP client, build the {@code ApiException} from the answer or the I/O
	 * failure ({@link EventsClient#read} reads a whole answer).
	 * <ul>
	 * <li>no HTTP answer (code 0: a refused connection, a timeout, a cancelled request) →
	 * {@link Kind#TRANSPORT}, named by the first message down the cause chain;</li>
	 * <li>an HTTP status → {@link Kind#HTTP_STATUS} with the Status body's {@code reason} and {@code message},
	 * whether a cause says {@code NamespaceTerminating}, and a 429/5xx answer's {@code Retry-After} in seconds
	 * (capped at {@link #MAX_RETRY_AFTER}).</li>
	 * </ul>
	 * @param failure the failed request
	 * @return the classified failure, with {@code failure} as its cause
	 */
	public static EventSinkException of(ApiException failure) {
		return ApiAnswers.classify(failure);
	}

	/**
	 * A 429 or 5xx answer whose {@code Retry-After} waits are used up: {@link Kind#UNAVAILABLE}, retried.
	 * @param status the classified answer ({@link Kind#HTTP_STATUS})
	 * @return the exception
	 */
	public static EventSinkException unavailable(EventSinkException status) {
		return new EventSinkException(Kind.UNAVAILABLE, status.statusCode, status.statusReason, false,
				status.getMessage() + " (still busy after the waits it asked for)", status.getCause());
	}

	/**
	 * An HTTP error status.
	 * @param statusCode the status code
	 * @param statusReason the Status reason, may be empty
	 * @param message the message
	 * @return the exception
	 */
	public static EventSinkException status(int statusCode, String statusReason, String message) {
		return new EventSinkException(Kind.HTTP_STATUS, statusCode, statusReason, false, message, null);
	}

	/** @return the error class */
	public Kind kind() {
		return this.kind;
	}

	/** @return the HTTP status code, or 0 when there was none */
	public int statusCode() {
		return this.statusCode;
	}

	/** @return the Kubernetes Status reason, e.g. {@code NotFound}, {@code AlreadyExists}, or {@code ""} */
	public String statusReason() {
		return this.statusReason;
	}

	/** @return whether the server said the namespace is terminating */
	public boolean namespaceTerminating() {
		return this.namespaceTerminating;
	}

	/**
	 * Whether the recorder retries this failure on the retry policy: transport, unexpected-response and unavailable
	 * errors, and HTTP 429 Too Many Requests with or without {@code Retry-After} (API Priority and Fairness, the
	 * EventRateLimit admission plugin). Differs from client-go for 429 deliberately: there a 429 without
	 * Retry-After is a {@code StatusError} and the event is dropped, so a server enforcing its event rate limit
	 * loses every event over the limit; here the limit delays them.
	 * @return whether it is retried
	 */
	public boolean isRetryable() {
		return this.kind == Kind.TRANSPORT || this.kind == Kind.UNEXPECTED_RESPONSE || this.kind == Kind.UNAVAILABLE
				|| isTooManyRequests();
	}

	/** @return whether this is HTTP 429 Too Many Requests (still so after the Retry-After waits) */
	public boolean isTooManyRequests() {
		return (this.kind == Kind.HTTP_STATUS || this.kind == Kind.UNAVAILABLE) && this.statusCode == 429;
	}

	/** @return whether this is HTTP 404 (the Event expired or was deleted) */
	public boolean isNotFound() {
		return this.kind == Kind.HTTP_STATUS && this.statusCode == 404;
	}

	/** @return the wait the server asked for with {@code Retry-After} (429 or 5xx), or {@code null} */
	public @Nullable Duration retryAfter() {
		return this.retryAfter;
	}

	/** @return whether this is HTTP 403 (e.g. RBAC refuses the verb) */
	public boolean isForbidden() {
		return this.kind == Kind.HTTP_STATUS && this.statusCode == 403;
	}

	/**
	 * @return whether this is HTTP 409 with reason Conflict (a resourceVersion precondition failed: the object
	 * changed since it was read)
	 */
	public boolean isConflict() {
		return this.kind == Kind.HTTP_STATUS && this.statusCode == 409 && "Conflict".equals(this.statusReason);
	}

	/** @return whether this is HTTP 409 with reason AlreadyExists */
	public boolean isAlreadyExists() {
		return this.kind == Kind.HTTP_STATUS && this.statusCode == 409 && "AlreadyExists".equals(this.statusReason);
	}

}
