package io.github.kubeevents;

import java.util.List;
import java.util.Map;

import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * What the API server's answer to a sink request means, for sinks over another HTTP client
 * ({@link EventsClient}): exactly the classification and the lenient parsing of the recorder's sinks over the
 * official client, so every client's failures take the same path through the recorder's retries.
 * <ul>
 * <li>a 2xx answer is read leniently (unknown fields ignored, {@code managedFields} skipped, like client-go's
 * decoder); one that is not the expected object → {@link EventSinkException.Kind#UNEXPECTED_RESPONSE}
 * (retried);</li>
 * <li>any other status → {@link EventSinkException.Kind#HTTP_STATUS} with the Status body's {@code reason} and
 * {@code message}, whether a cause says {@code NamespaceTerminating}, and a 429/5xx answer's {@code Retry-After}
 * (capped at 60 s);</li>
 * <li>an I/O failure (no answer, a timeout, a cancelled request) → {@link EventSinkException.Kind#TRANSPORT};</li>
 * <li>an Event without namespace (or, for a patch, name) → {@link EventSinkException.Kind#REQUEST_CONSTRUCTION},
 * before anything is sent.</li>
 * </ul>
 *
 * <p>Stateless; thread-safe.
 */
public final class ApiAnswers {

	private ApiAnswers() {
	}

	/**
	 * The object an answer carries, or the classified failure it stands for.
	 * @param <T> the expected type, a client-java model such as {@code CoreV1Event}
	 * @param verb what the request did ({@code create}, {@code patch}), for the message of an unexpected answer
	 * @param status the HTTP status code
	 * @param statusMessage the HTTP status line's message, may be empty
	 * @param headers the answer's headers (for {@code Retry-After}), any case
	 * @param body the answer's body, may be empty
	 * @param type the expected type
	 * @return the object of a 2xx answer
	 * @throws EventSinkException for any other status, or a 2xx answer that is not a {@code type} with a name
	 */
	public static <T> T read(String verb, int status, String statusMessage, Map<String, List<String>> headers,
			String body, Class<T> type) throws EventSinkException {
		if (status < 200 || status >= 300) {
			throw ApiErrors.classify(new ApiException(statusMessage, status, headers, body));
		}
		try {
			return ApiCalls.parse(body, type);
		}
		catch (RuntimeException ex) {
			throw EventSinkException.of(EventSinkException.Kind.UNEXPECTED_RESPONSE,
					"Unexpected response to " + verb + ": " + ex, ex);
		}
	}

	/**
	 * The classified failure of a request that got no HTTP answer.
	 * @param cause the I/O failure (a refused connection, a timeout, a cancelled request)
	 * @return a {@link EventSinkException.Kind#TRANSPORT} failure
	 */
	public static EventSinkException transportFailure(Throwable cause) {
		return ApiErrors.classify(new ApiException(cause));
	}

	/**
	 * The namespace an Event is written to.
	 * @param metadata the Event's metadata, may be {@code null}
	 * @return the namespace
	 * @throws EventSinkException ({@link EventSinkException.Kind#REQUEST_CONSTRUCTION}) when there is none
	 */
	public static String namespaceOf(@Nullable V1ObjectMeta metadata) throws EventSinkException {
		return ApiCalls.requireNamespace(metadata);
	}

	/**
	 * The name of the Event a patch is for.
	 * @param metadata the Event's metadata, may be {@code null}
	 * @return the name
	 * @throws EventSinkException ({@link EventSinkException.Kind#REQUEST_CONSTRUCTION}) when there is none
	 */
	public static String nameOf(@Nullable V1ObjectMeta metadata) throws EventSinkException {
		return ApiCalls.requireName(metadata);
	}

}
