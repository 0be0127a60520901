package io.github.kubeevents.sink;

import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;

import io.kubernetes.client.openapi.ApiException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Transport failures named by what a reader needs: the first message down the cause chain. */
class ApiAnswersTests {

	@Test
	void aTransportFailureWithAMessageIsNamedByIt() {
		EventSinkException failure = ApiAnswers.classify(new ApiException(new ConnectException("Connection refused")));
		assertThat(failure.kind()).isEqualTo(EventSinkException.Kind.TRANSPORT);
		assertThat(failure.getMessage()).isEqualTo("Transport failure: ConnectException: Connection refused");
	}

	/** The JDK client's (fabric8's) ConnectException has no message: "ConnectException: null" told nothing. */
	@Test
	void aFailureWithoutAMessageIsNamedByItsCausesDownToOneThatHasOne() {
		ConnectException jdk = new ConnectException();
		jdk.initCause(new ConnectException("Connection refused: 127.0.0.1:6443"));
		assertThat(ApiAnswers.classify(new ApiException(jdk)).getMessage()).isEqualTo("Transport failure: ConnectException,"
				+ " caused by ConnectException: Connection refused: 127.0.0.1:6443");
	}

	@Test
	void aFailureWithoutAnyMessageSaysSo() {
		assertThat(ApiAnswers.classify(new ApiException(new ClosedChannelException())).getMessage())
			.isEqualTo("Transport failure: ClosedChannelException (no message)");
	}

}
