package io.github.kubeevents.sink;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;

import io.github.kubeevents.TestEvents;
import io.github.kubeevents.correlator.EventPatch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.util.ClientBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * What a real API server cannot show: a dead connection, and requests that cannot be built. HTTP statuses are
 * covered against a real kube-apiserver in the integration tests; here the Status-body parsing is pinned down.
 */
class CoreV1EventSinkTest {

	private static int closedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	@Test
	void deadConnectionIsATransportFailure() throws Exception {
		ApiClient client = new ClientBuilder().setBasePath("http://127.0.0.1:" + closedPort()).build();
		CoreV1EventSink sink = new CoreV1EventSink(client);
		CoreV1Event event = TestEvents.event("R", "m", TestEvents.ref("Pod", "p", "ns"));
		EventSinkException create = catchThrowableOfType(EventSinkException.class, () -> sink.create(event));
		assertThat(create.kind()).isEqualTo(EventSinkException.Kind.TRANSPORT);
		assertThat(create.isRetryable()).isTrue();
		EventSinkException patch = catchThrowableOfType(EventSinkException.class,
				() -> sink.patch(event, new EventPatch(2, OffsetDateTime.now(ZoneOffset.UTC), "m")));
		assertThat(patch.kind()).isEqualTo(EventSinkException.Kind.TRANSPORT);
	}

	@Test
	void eventWithoutNamespaceOrNameCannotBeBuilt() throws Exception {
		ApiClient client = new ClientBuilder().setBasePath("http://127.0.0.1:" + closedPort()).build();
		CoreV1EventSink sink = new CoreV1EventSink(client);
		CoreV1Event noNamespace = TestEvents.event("R", "m", TestEvents.ref("Pod", "p", "ns"));
		noNamespace.getMetadata().setNamespace(null);
		EventSinkException ex = catchThrowableOfType(EventSinkException.class, () -> sink.create(noNamespace));
		assertThat(ex.kind()).isEqualTo(EventSinkException.Kind.REQUEST_CONSTRUCTION);
		assertThat(ex.isRetryable()).isFalse();
		CoreV1Event noName = TestEvents.event("R", "m", TestEvents.ref("Pod", "p", "ns"));
		noName.getMetadata().setName(null);
		ex = catchThrowableOfType(EventSinkException.class,
				() -> sink.patch(noName, new EventPatch(2, OffsetDateTime.now(ZoneOffset.UTC), "m")));
		assertThat(ex.kind()).isEqualTo(EventSinkException.Kind.REQUEST_CONSTRUCTION);
	}

	@Test
	void statusBodyGivesReasonAndNamespaceTerminating() {
		String body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"events \\\"x\\\" is forbidden: unable to create new content in namespace gone because it is being terminated\","
				+ "\"reason\":\"Forbidden\",\"details\":{\"name\":\"x\",\"kind\":\"events\",\"causes\":[{\"reason\":\"NamespaceTerminating\",\"message\":\"namespace gone is being terminated\",\"field\":\"metadata.namespace\"}]},\"code\":403}";
		EventSinkException ex = CoreV1EventSink.classify(new ApiException(403, Map.of(), body));
		assertThat(ex.kind()).isEqualTo(EventSinkException.Kind.HTTP_STATUS);
		assertThat(ex.statusCode()).isEqualTo(403);
		assertThat(ex.statusReason()).isEqualTo("Forbidden");
		assertThat(ex.namespaceTerminating()).isTrue();
		assertThat(ex.getMessage()).startsWith("HTTP 403 Forbidden: events \"x\" is forbidden");
	}

	@Test
	void alreadyExistsAndNotFoundAreRecognised() {
		EventSinkException exists = CoreV1EventSink.classify(new ApiException(409, Map.of(),
				"{\"kind\":\"Status\",\"reason\":\"AlreadyExists\",\"code\":409}"));
		assertThat(exists.isAlreadyExists()).isTrue();
		assertThat(exists.namespaceTerminating()).isFalse();
		EventSinkException notFound = CoreV1EventSink.classify(new ApiException(404, Map.of(), "not json"));
		assertThat(notFound.isNotFound()).isTrue();
		assertThat(notFound.statusReason()).isEmpty();
		assertThat(notFound.isRetryable()).isFalse();
	}

	@Test
	void patchBodyIsBuiltWithJsonNotStringFormatting() {
		ApiClient client = new ApiClient();
		EventPatch patch = new EventPatch(3, OffsetDateTime.of(2026, 11, 30, 12, 0, 5, 0, ZoneOffset.UTC),
				"quote \" backslash \\ unicode é");
		assertThat(client.getJSON().serialize(patch.toMap())).isEqualTo(
				"{\"count\":3,\"lastTimestamp\":\"2026-11-30T12:00:05Z\",\"message\":\"quote \\\" backslash \\\\ unicode é\"}");
		assertThat(new EventPatch(2, OffsetDateTime.of(2026, 11, 30, 12, 0, 5, 0, ZoneOffset.UTC), "").toMap())
			.containsOnlyKeys("count", "lastTimestamp");
	}

}
