package io.github.kubeevents;

import com.github.benmanes.caffeine.cache.Cache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The WARN, once per kind, that Events about an object without a uid are written with an empty
 * {@code involvedObject.uid}, which the API server accepts but several readers key on: Freelens/OpenLens object
 * pages match Events to an object by uid, Datadog aggregates Events by it, and the OpenTelemetry collector's
 * {@code k8seventsreceiver} reports it as {@code k8s.object.uid}. An object passed to the recorder carries its uid;
 * an {@link InvolvedObject} built by hand ({@code InvolvedObject.of(kind, apiVersion, namespace, name)}) does not.
 *
 * <p>Each sink subscriber has one and calls it on the distribution thread; thread-safe, bounded (1,024 kinds).
 */
final class UidlessObjectWarning {

	private static final Logger logger = LoggerFactory.getLogger(UidlessObjectWarning.class);

	private final Cache<String, Boolean> warnedKinds = Caches.bounded(1024);

	/** The field written: {@code involvedObject.uid} (core/v1) or {@code regarding.uid} (events.k8s.io/v1). */
	private final String field;

	UidlessObjectWarning(String field) {
		this.field = field;
	}

	/** Warns when {@code event}'s object has no uid and its kind was not warned of before. */
	void check(RecordedEvent event) {
		InvolvedObject regarding = event.regarding();
		String uid = regarding.uid();
		if (uid != null && !uid.isEmpty()) {
			return;
		}
		String kind = String.valueOf(regarding.kind());
		if (this.warnedKinds.asMap().putIfAbsent(kind, Boolean.TRUE) == null) {
			logger.warn("Events about {} objects are written without {} ({}): Freelens and OpenLens"
					+ " object pages, Datadog's event aggregation and the OpenTelemetry receiver's k8s.object.uid key"
					+ " on it, so they cannot find these Events. Record the object itself, or give the InvolvedObject"
					+ " its uid (InvolvedObject.withUid). Logged once per kind.", LogText.quoted(kind), this.field,
					event.describe());
		}
	}

}
