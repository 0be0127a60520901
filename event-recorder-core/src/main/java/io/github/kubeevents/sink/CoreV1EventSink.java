package io.github.kubeevents.sink;

import java.util.Objects;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeevents.correlator.EventPatch;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.util.PatchUtils;
import okhttp3.Call;

/**
 * Writes core/v1 Events through the official Kubernetes Java client: CREATE with the generated API, repeats as
 * a strategic-merge PATCH through {@link PatchUtils} (the generated PATCH sends {@code application/json}, which
 * the API server refuses with 415).
 *
 * <p>Failures are classified: {@code ApiException} with code 0 (I/O) → {@link EventSinkException.Kind#TRANSPORT};
 * with an HTTP status → {@link EventSinkException.Kind#HTTP_STATUS} (with the Status reason and whether a cause
 * says {@code NamespaceTerminating}); an answer that does not parse as an Event →
 * {@link EventSinkException.Kind#UNEXPECTED_RESPONSE}; a request that cannot be built →
 * {@link EventSinkException.Kind#REQUEST_CONSTRUCTION}.
 *
 * <p>Thread-safe (as thread-safe as the {@link ApiClient}).
 */
public final class CoreV1EventSink implements EventSink {

	private final ApiClient apiClient;

	private final CoreV1Api api;

	/**
	 * A sink writing through {@code apiClient}.
	 * @param apiClient the client (its base path, authentication and timeouts are used as they are)
	 */
	public CoreV1EventSink(ApiClient apiClient) {
		this.apiClient = Objects.requireNonNull(apiClient, "apiClient");
		this.api = new CoreV1Api(apiClient);
	}

	@Override
	public CoreV1Event create(CoreV1Event event) throws EventSinkException {
		String namespace = requireNamespace(event);
		Call call;
		try {
			call = this.api.createNamespacedEvent(namespace, event).buildCall(null);
		}
		catch (ApiException | RuntimeException ex) {
			throw EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION,
					"Unable to construct create request: " + ex.getMessage(), ex);
		}
		try {
			return this.apiClient.<CoreV1Event>execute(call, CoreV1Event.class).getData();
		}
		catch (ApiException ex) {
			throw classify(ex);
		}
		catch (RuntimeException ex) {
			throw EventSinkException.of(EventSinkException.Kind.UNEXPECTED_RESPONSE,
					"Unexpected response to create: " + ex, ex);
		}
	}

	@Override
	public CoreV1Event patch(CoreV1Event event, EventPatch patch) throws EventSinkException {
		String namespace = requireNamespace(event);
		String name = event.getMetadata().getName();
		if (name == null || name.isEmpty()) {
			throw EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION,
					"Unable to construct patch request: event has no name", null);
		}
		V1Patch body = new V1Patch(this.apiClient.getJSON().serialize(patch.toMap()));
		try {
			return PatchUtils.patch(CoreV1Event.class, () -> buildPatchCall(name, namespace, body),
					V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, this.apiClient);
		}
		catch (RequestConstructionFailure ex) {
			throw EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION,
					"Unable to construct patch request: " + ex.getCause().getMessage(), ex.getCause());
		}
		catch (ApiException ex) {
			throw classify(ex);
		}
		catch (RuntimeException ex) {
			throw EventSinkException.of(EventSinkException.Kind.UNEXPECTED_RESPONSE,
					"Unexpected response to patch: " + ex, ex);
		}
	}

	private Call buildPatchCall(String name, String namespace, V1Patch body) {
		try {
			return this.api.patchNamespacedEvent(name, namespace, body).buildCall(null);
		}
		catch (ApiException | RuntimeException ex) {
			throw new RequestConstructionFailure(ex);
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
