package io.github.kubeevents;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

import io.github.kubeevents.introspect.ObjectRef;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.WriteBudgetSnapshot;
import org.jspecify.annotations.Nullable;

/** Assembles {@link RecorderSnapshot}s from a broadcaster's parts. Stateless. */
final class Snapshots {

	private Snapshots() {
	}

	static RecorderSnapshot recorder(BroadcasterParts parts, int limit, Predicate<ObjectRef> filter) {
		Fanout fanout = parts.fanout();
		EventCounters counters = parts.counters();
		List<RecorderSnapshot.SinkSnapshot> sinkViews = new ArrayList<>();
		for (SubscriberQueue subscriber : fanout.subscribers()) {
			if (subscriber.handler() instanceof SinkRecording sink) {
				sinkViews.add(sink.snapshot(subscriber.name(), limit, filter));
			}
		}
		return new RecorderSnapshot(parts.clock().instant(), fanout.state().name().toLowerCase(Locale.ROOT),
				new RecorderSnapshot.QueueSnapshot(fanout.depth(), fanout.capacity()), counters.acceptedCount(),
				counters.droppedByReason(), subscribers(fanout), sinkViews, budget(parts.sinkSettings().budget()));
	}

	static @Nullable WriteBudgetSnapshot budget(@Nullable WriteBudget budget) {
		return (budget != null)
				? new WriteBudgetSnapshot(budget.qps(), budget.burst(), budget.throttledCount(), budget.totalWait())
				: null;
	}

	static List<RecorderSnapshot.SubscriberSnapshot> subscribers(Fanout fanout) {
		List<RecorderSnapshot.SubscriberSnapshot> result = new ArrayList<>();
		for (SubscriberQueue subscriber : fanout.subscribers()) {
			SubscriberOptions options = subscriber.options();
			int depth = subscriber.depth();
			int capacity = options.queueCapacity();
			long dropped = subscriber.droppedCount();
			if (subscriber.handler() instanceof SinkRecording sink) {
				// a sink's events also wait in its writer threads' queues
				SinkWriters writers = sink.writers();
				depth += writers.depth();
				capacity += writers.capacity();
				dropped += writers.queueFullCount();
			}
			result.add(new RecorderSnapshot.SubscriberSnapshot(subscriber.name(), depth, capacity,
					options.fullQueuePolicy().tag(), dropped));
		}
		return result;
	}

}
