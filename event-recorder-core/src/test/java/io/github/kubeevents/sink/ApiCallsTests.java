package io.github.kubeevents.sink;

import java.time.Duration;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A request that cannot be built (a credential hook or a generated builder failing) is a
 * {@code REQUEST_CONSTRUCTION} failure, dropped as {@code invalid_input} without a retry, for a create and a patch
 * alike: it used to escape the classification as a RuntimeException, which the write attempts retried 12 times as
 * "the sink threw".
 */
class ApiCallsTests {

	private final ApiCalls calls = new ApiCalls(new ApiClient().setBasePath("http://127.0.0.1:1"), Duration.ofSeconds(1));

	@Test
	void aCreateThatCannotBeBuiltIsARequestConstructionFailure() {
		EventSinkException failure = catchThrowableOfType(EventSinkException.class,
				() -> this.calls.call(() -> {
					throw new IllegalStateException("token file ends with a newline");
				}, CoreV1Event.class, "create"));
		assertThat(failure.kind()).isEqualTo(EventSinkException.Kind.REQUEST_CONSTRUCTION);
		assertThat(failure.isRetryable()).isFalse();
		assertThat(failure.getMessage()).isEqualTo("Unable to construct create request: token file ends with a newline");
	}

	@Test
	void aPatchThatCannotBeBuiltIsARequestConstructionFailure() {
		EventSinkException failure = catchThrowableOfType(EventSinkException.class,
				() -> this.calls.patch(() -> {
					throw new IllegalStateException("token file ends with a newline");
				}, Map.of("count", 2), CoreV1Event.class));
		assertThat(failure.kind()).isEqualTo(EventSinkException.Kind.REQUEST_CONSTRUCTION);
		assertThat(failure.getMessage()).isEqualTo("Unable to construct patch request: token file ends with a newline");
	}

}
