package io.github.kubeevents.sink;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

import com.google.gson.ExclusionStrategy;
import com.google.gson.FieldAttributes;
import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import org.jspecify.annotations.Nullable;

/**
 * What the API server's answer to a sink request means, for every client the recorder writes through (behind
 * {@link EventSinkException#of(ApiException)} and {@link EventsClient#read}): the {@link EventSinkException} for an
 * {@link ApiException} (a transport failure, or an HTTP status with the {@code reason}, {@code message} and
 * {@code NamespaceTerminating} cause of its Status body, and the Retry-After wait of a 429/5xx answer, capped at
 * {@link EventSinkException#MAX_RETRY_AFTER}); the lenient reading of a 2xx answer.
 *
 * <p>Stateless; thread-safe.
 */
final class ApiAnswers {

	/** Lenient, reflective: unknown fields ignored, managedFields skipped, times as the client reads them. */
	private static final Gson LENIENT = new GsonBuilder()
		.registerTypeAdapter(OffsetDateTime.class, JSON.getGson().getAdapter(OffsetDateTime.class))
		.setExclusionStrategies(new ExclusionStrategy() {

			@Override
			public boolean shouldSkipField(FieldAttributes field) {
				return field.getName().equals("managedFields");
			}

			@Override
			public boolean shouldSkipClass(Class<?> type) {
				return false;
			}

		})
		.create();

	private ApiAnswers() {
	}

	/** The answer as {@code type}; an unreadable answer or one without a name is an unexpected response. */
	static <T> T parse(String body, Class<T> type) {
		T result;
		try {
			result = LENIENT.fromJson(body, type);
		}
		catch (JsonParseException ex) {
			throw new IllegalArgumentException("the answer is not a " + type.getSimpleName() + ": " + ex.getMessage(),
					ex);
		}
		if (result instanceof KubernetesObject object
				&& (object.getMetadata() == null || object.getMetadata().getName() == null)) {
			throw new IllegalArgumentException("the answer is not a " + type.getSimpleName() + " (no metadata.name)");
		}
		if (result == null) {
			throw new IllegalArgumentException("the answer is empty");
		}
		return result;
	}

	/** The Retry-After wait of a 429/5xx answer, or {@code null} when it must not be retried here. */
	private static @Nullable Duration retryAfter(ApiException ex) {
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
					return (wait.compareTo(EventSinkException.MAX_RETRY_AFTER) > 0) ? EventSinkException.MAX_RETRY_AFTER
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
					for (JsonElement cause : details.getAsJsonArray("causes")) {
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
	private static String describe(ApiException ex) {
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
