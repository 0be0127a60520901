package io.github.kubeevents;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recorder's own log category, {@code io.github.kubeevents.EventBroadcaster}: start, stop, API choice, RBAC
 * fallbacks, naming and clock-skew lines are written there whichever class writes them, so one logger setting
 * controls them all. Named by its string, so that the classes below the broadcaster do not import it.
 */
final class RecorderLog {

	/** The category; the broadcaster's class name, kept for users' existing logger settings. */
	static final String CATEGORY = "io.github.kubeevents.EventBroadcaster";

	static final Logger LOGGER = LoggerFactory.getLogger(CATEGORY);

	private RecorderLog() {
	}

}
