package io.github.kubeevents;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeevents.sink.EventSinkException;
import io.kubernetes.client.openapi.ApiException;
import org.jspecify.annotations.Nullable;

/**
 * What a failed request of {@link ApiCalls} means: the {@link EventSinkException} for an {@link ApiException} (a
 * transport failure, or an HTTP status with the {@code reason}, {@code message} and {@code NamespaceTerminating}
 * cause of its Status body, and the Retry-After wait of a 429/5xx answer, capped at {@link #MAX_RETRY_AFTER}).
 *
 * <p>Stateless; thread-safe.
 */
final class ApiErrors {

	/** The longest Retry-After wait honoured. */
	static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(60);

	private ApiErrors() {
	}

	/** The Retry-After wait of a 429/5xx answer, or {@code null} when it must not be retried here. */
	static @Nullable Duration retryAfter(ApiException ex) {
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
					return (wait.compareTo(MAX_RETRY_AFTER) > 0) ? MAX_RETRY_AFTER
							: wait;
				}
				catch (NumberFormatException notSeconds) {
					return null;
				}
			}
		}
		return null;
	}

	/** The sink failure an API error stands for: {@code TRANSPORT} without an HTTP status, else {@code HTTP_STATUS}. */
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
						if (cause.isJsonObject()
								&& "NamespaceTerminating".equals(string(cause.getAsJsonObject(), "reason"))) {
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
				retryAfter(ex), "HTTP " + ex.getCode() + ((reason.isEmpty()) ? "" : " " + reason) + ": " + message, ex);
	}

	/**
	 * A transport failure as a reader needs it: {@code ConnectException: Connection refused}; where the failure has
	 * no message (the JDK client's {@code ConnectException}, a bare {@code ClosedChannelException}), its causes down
	 * to the first that has one, e.g. {@code ConnectException, caused by ConnectException: Connection refused}.
	 */
	static String describe(ApiException ex) {
		Throwable failure = (ex.getCause() != null) ? ex.getCause() : ex;
		StringBuilder out = new StringBuilder();
		for (int depth = 0; failure != null && depth < 6; depth++) {
			if (depth > 0) {
				out.append(", caused by ");
			}
			out.append(failure.getClass().getSimpleName());
			String message = failure.getMessage();
			if (message != null && !message.isBlank()) {
				return out.append(": ").append(message).toString();
			}
			failure = (failure.getCause() != failure) ? failure.getCause() : null;
		}
		return out.append(" (no message)").toString();
	}

	private static String string(JsonObject object, String member) {
		JsonElement value = object.get(member);
		return (value != null && value.isJsonPrimitive()) ? value.getAsString() : "";
	}

}
