package io.github.kubeevents.it;

import java.util.Set;
import java.util.stream.Collectors;

/** The recorder's threads that are still alive ({@code kubeevents-*}). */
final class EventThreads {

	private EventThreads() {
	}

	static Set<String> alive() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter(Thread::isAlive)
			.map(Thread::getName)
			.filter((name) -> name.startsWith("kubeevents-"))
			.collect(Collectors.toSet());
	}

}
