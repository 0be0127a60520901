package io.github.kubeevents;

import java.util.ArrayList;
import java.util.List;

import io.github.kubeevents.EventKeys.AggregateKey;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EventKeysTests {

	private final CoreV1Event event = TestEvents.event("Started", "started container", TestEvents.ref("Pod", "my-pod", "my-ns"))
		.reportingComponent("rc")
		.reportingInstance("ri");

	@Test
	void eventKeyConcatenatesSourceObjectTypeReasonAndMessageWithoutSeparator() {
		assertThat(EventKeys.eventKey(this.event)).isEqualTo("kubelet" + "kublet.node1" + "Pod" + "my-ns" + "my-pod"
				+ "spec.containers{mycontainer}" + "C934D34AFB20242" + "version" + "Normal" + "Started"
				+ "started container");
	}

	@Test
	void spamKeyHasSourceObjectAndTypeButNoReasonFieldPathOrMessage() {
		assertThat(EventKeys.spamKey(this.event))
			.isEqualTo("kubelet" + "kublet.node1" + "Pod" + "my-ns" + "my-pod" + "C934D34AFB20242" + "version" + "Normal");
		assertThat(EventKeys.spamKeyWithReason(this.event)).isEqualTo(EventKeys.spamKey(this.event) + "Started");
	}

	@Test
	void spamKeySeparatesNormalFromWarning() {
		CoreV1Event warning = TestEvents.event("Started", "x", TestEvents.ref("Pod", "my-pod", "my-ns")).type("Warning");
		assertThat(EventKeys.spamKey(warning)).isNotEqualTo(EventKeys.spamKey(this.event));
	}

	@Test
	void aggregateByReasonKeysOnReasonAndReportingFieldsAndSeparatesByMessage() {
		AggregateKey keys = EventKeys.aggregateByReason(this.event);
		assertThat(keys.aggregateKey()).isEqualTo("kubelet" + "kublet.node1" + "Pod" + "my-ns" + "my-pod"
				+ "C934D34AFB20242" + "version" + "Normal" + "Started" + "rc" + "ri");
		assertThat(keys.localKey()).isEqualTo("started container");

		CoreV1Event otherMessage = TestEvents.event("Started", "other", TestEvents.ref("Pod", "my-pod", "my-ns"))
			.reportingComponent("rc")
			.reportingInstance("ri");
		assertThat(EventKeys.aggregateByReason(otherMessage).aggregateKey()).isEqualTo(keys.aggregateKey());
		assertThat(EventKeys.aggregateByReason(otherMessage).localKey()).isNotEqualTo(keys.localKey());

		CoreV1Event otherReason = TestEvents.event("Killed", "started container", TestEvents.ref("Pod", "my-pod", "my-ns"))
			.reportingComponent("rc")
			.reportingInstance("ri");
		assertThat(EventKeys.aggregateByReason(otherReason).aggregateKey()).isNotEqualTo(keys.aggregateKey());
	}

	@Test
	void fieldPathIsNotPartOfTheAggregateKey() {
		CoreV1Event other = TestEvents.event("Started", "started container", TestEvents.ref("Pod", "my-pod", "my-ns"))
			.reportingComponent("rc")
			.reportingInstance("ri");
		other.getInvolvedObject().setFieldPath("spec.containers{other}");
		assertThat(EventKeys.aggregateByReason(other)).isEqualTo(EventKeys.aggregateByReason(this.event));
		assertThat(EventKeys.eventKey(other)).isNotEqualTo(EventKeys.eventKey(this.event));
	}

	@Test
	void resourceVersionIsPartOfNoKey() {
		CoreV1Event other = TestEvents.event("Started", "started container", TestEvents.ref("Pod", "my-pod", "my-ns"))
			.reportingComponent("rc")
			.reportingInstance("ri");
		other.getInvolvedObject().setResourceVersion("42");
		assertThat(EventKeys.eventKey(other)).isEqualTo(EventKeys.eventKey(this.event));
		assertThat(EventKeys.spamKey(other)).isEqualTo(EventKeys.spamKey(this.event));
		assertThat(EventKeys.aggregateByReason(other)).isEqualTo(EventKeys.aggregateByReason(this.event));
	}

	@Test
	void defaultMessageFunctionPrefixesTheLatestMessage() {
		CorrelatorOptions options = CorrelatorOptions.defaults();
		assertThat(options.messageFunction().apply(this.event))
			.isEqualTo("(combined from similar events): started container");
	}

	@Test
	void constantsAreTheKeyFunctions() {
		assertThat(EventKeys.SPAM_KEY.apply(this.event)).isEqualTo(EventKeys.spamKey(this.event));
		assertThat(EventKeys.SPAM_KEY_WITH_REASON.apply(this.event)).isEqualTo(EventKeys.spamKeyWithReason(this.event));
		assertThat(EventKeys.AGGREGATE_BY_REASON.apply(this.event)).isEqualTo(EventKeys.aggregateByReason(this.event));
		assertThat(EventKeys.SPAM_KEY).hasToString("EventKeys.SPAM_KEY");
		assertThat(EventKeys.SPAM_KEY_WITH_REASON).hasToString("EventKeys.SPAM_KEY_WITH_REASON");
		assertThat(EventKeys.AGGREGATE_BY_REASON).hasToString("EventKeys.AGGREGATE_BY_REASON");
	}

	@Test
	void keysWrittenFromTheFieldsHashLikeTheStrings() {
		CoreV1Event noObjectNoSource = new CoreV1Event().reason("r").message("m").type("Normal");
		CoreV1Event nullFields = TestEvents.event("Started", null, new V1ObjectReference().name("my-pod"))
			.source(null)
			.type(null);
		KeyHash.Builder key = new KeyHash.Builder();
		for (CoreV1Event e : List.of(this.event, noObjectNoSource, nullFields)) {
			EventKeys.writeEventKey(e, key.reset());
			assertThat(key.build()).isEqualTo(KeyHash.of(EventKeys.eventKey(e)));
			EventKeys.writer(EventKeys.SPAM_KEY).writeKey(e, key.reset());
			assertThat(key.build()).isEqualTo(KeyHash.of(EventKeys.spamKey(e)));
			EventKeys.writer(EventKeys.SPAM_KEY_WITH_REASON).writeKey(e, key.reset());
			assertThat(key.build()).isEqualTo(KeyHash.of(EventKeys.spamKeyWithReason(e)));
			AggregateKey keys = EventKeys.aggregateByReason(e);
			String localKey = EventKeys.aggregateWriter(EventKeys.AGGREGATE_BY_REASON).writeAggregateKey(e, key.reset());
			assertThat(key.build()).isEqualTo(KeyHash.of(keys.aggregateKey()));
			assertThat(localKey).isEqualTo(keys.localKey());
		}
	}

	@Test
	void onlyTheConstantsTakeTheFastPath() {
		assertThat(EventKeys.writer(EventKeys.SPAM_KEY)).isSameAs(EventKeys.SPAM_KEY);
		assertThat(EventKeys.aggregateWriter(EventKeys.AGGREGATE_BY_REASON)).isSameAs(EventKeys.AGGREGATE_BY_REASON);
		List<String> calls = new ArrayList<>();
		EventKeys.KeyWriter own = EventKeys.writer((e) -> {
			calls.add(e.getReason());
			return EventKeys.spamKey(e);
		});
		KeyHash.Builder key = new KeyHash.Builder();
		own.writeKey(this.event, key);
		assertThat(key.build()).isEqualTo(KeyHash.of(EventKeys.spamKey(this.event)));
		assertThat(calls).containsExactly("Started");
	}

}
