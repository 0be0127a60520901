package io.github.kubeevents.introspect;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * {@link RecorderStats} built without a broadcaster: the builder's defaults, the copies it takes, and value equality.
 */
class RecorderStatsTests {

	@Test
	void builderStartsAtANewBroadcastersValues() {
		RecorderStats stats = RecorderStats.builder().build();
		assertThat(stats.state()).isEqualTo("new");
		assertThat(stats.running()).isFalse();
		assertThat(stats.queue()).isEqualTo(new RecorderStats.Queue(0, 0));
		assertThat(stats.accepted()).isZero();
		assertThat(stats.dropped()).isEmpty();
		assertThat(stats.totalDropped()).isZero();
		assertThat(stats.writes()).isEqualTo(RecorderStats.Writes.ZERO);
		assertThat(stats.lastRejection()).isNull();
		assertThat(stats.writeBudget()).isNull();
		assertThat(stats.subscribers()).isEmpty();
		assertThat(stats.missingAccess()).isEmpty();
		assertThat(stats.throttledByServer("event_rate_limit")).isZero();
		assertThat(stats.naming()).isEqualTo(RecorderStats.Naming.CLIENT_GO_NAMES);
	}

	@Test
	void collectionsAreCopiedInTheirOrderAndCannotBeChanged() {
		Map<String, Long> dropped = new LinkedHashMap<>();
		dropped.put("queue_full", 3L);
		dropped.put("shutdown", 4L);
		List<RecorderStats.Subscriber> subscribers = new ArrayList<>();
		subscribers.add(new RecorderStats.Subscriber("sink-1", 2, 8, "wait", 0));
		RecorderStats stats = RecorderStats.builder().state("running").dropped(dropped).subscribers(subscribers).build();
		dropped.put("invalid_input", 9L);
		subscribers.clear();
		assertThat(stats.running()).isTrue();
		assertThat(stats.dropped()).containsExactly(Map.entry("queue_full", 3L), Map.entry("shutdown", 4L));
		assertThat(stats.dropped("shutdown")).isEqualTo(4);
		assertThat(stats.totalDropped()).isEqualTo(7);
		assertThat(stats.subscribers()).extracting(RecorderStats.Subscriber::name).containsExactly("sink-1");
		assertThat(stats.dropped()).isUnmodifiable();
		assertThat(stats.subscribers()).isUnmodifiable();
	}

	@Test
	void equalValuesAreEqualStats() {
		RecorderStats one = RecorderStats.builder().state("running").accepted(5).writtenWithoutPatch(2).build();
		RecorderStats same = RecorderStats.builder().state("running").accepted(5).writtenWithoutPatch(2).build();
		RecorderStats other = RecorderStats.builder().state("running").accepted(5).writtenWithoutPatch(3).build();
		assertThat(one).isEqualTo(same).hasSameHashCodeAs(same).isNotEqualTo(other);
		assertThat(one.toString()).contains("accepted=5", "writtenWithoutPatch=2");
	}

	@Test
	void requiredValuesRejectNull() {
		assertThatNullPointerException().isThrownBy(() -> RecorderStats.builder().state(null)).withMessage("state");
		assertThatNullPointerException().isThrownBy(() -> RecorderStats.builder().naming(null)).withMessage("naming");
	}

}
