package io.github.kubeevents;

import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.kubeevents.sink.EventShape;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.CoreV1EventSeries;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@linkplain EventShape#READERS readers' shape} of core/v1 writes: client-go's Event and count PATCH, plus the
 * fields that let every reader show the right count and last-seen time.
 *
 * <table>
 * <caption>What each reader takes (their code, and runs of the real programs)</caption>
 * <tr><th>reader</th><th>count</th><th>last seen</th></tr>
 * <tr><td>kubectl describe / events</td><td>{@code series.count}, else {@code count}</td><td>{@code series.lastObservedTime},
 * else {@code lastTimestamp} (count &gt; 1), else {@code eventTime}, else {@code firstTimestamp}</td></tr>
 * <tr><td>OTel {@code k8seventsreceiver}, Grafana Alloy, event exporters (core/v1)</td><td>{@code count}</td>
 * <td>{@code eventTime}, else {@code lastTimestamp}</td></tr>
 * <tr><td>events.k8s.io/v1 readers (OTel PR #50962; Headlamp #5922, Vector #24448 and the GKE exporter also
 * fall back to {@code deprecatedLastTimestamp})</td><td>{@code series.count} (1 without a series)</td>
 * <td>{@code series.lastObservedTime}, else {@code eventTime}</td></tr>
 * </table>
 *
 * So a first occurrence carries {@code eventTime} (with {@code action}, which the server then requires) and a
 * repeat carries a series and no {@code eventTime} (else the core/v1 readers would keep showing the first
 * occurrence, and kubectl would measure "over" from the latest). {@code eventTime} makes the API server validate the
 * Event as a new-style one; an Event that would fail that is written without it, as client-go writes it, and
 * {@link Fallbacks} says so once per field.
 *
 * <p>Stateless and thread-safe.
 */
final class ReadersShape {

	private ReadersShape() {
	}

	/** Why a first occurrence cannot carry {@code eventTime}: the field the server would refuse, and the problem. */
	record Problem(String field, String text) {
	}

	/**
	 * Tells the user, at INFO and once per field, that a first occurrence is written client-go's way and what the
	 * readers then lose; every such write is still made. Thread-safe (the fields are few, so the set is bounded).
	 */
	static final class Fallbacks {

		private static final Logger logger = LoggerFactory.getLogger(ReadersShape.class);

		private final Set<String> logged = ConcurrentHashMap.newKeySet();

		void fellBack(Problem problem, RecordedEvent event) {
			if (this.logged.add(problem.field())) {
				logger.info("A first occurrence is written without eventTime and action, as client-go writes it,"
						+ " because {}; the API server would refuse it with them ({}). A reader of events.k8s.io/v1"
						+ " that takes eventTime alone (OpenTelemetry #50962) shows such an Event with no time, and its"
						+ " events.k8s.io/v1 view has no action. Logged once for the {}.", problem.text(),
						event.describe(), problem.field());
			}
		}

	}

	/**
	 * The Event to create, in the readers' shape: a copy with {@code eventTime} and {@code action} for a single
	 * occurrence that passes the new-style validation, with a series for a count above 1, else the event itself.
	 * @param event the event as client-go would create it (not modified)
	 * @param occurred when the (latest) occurrence happened
	 * @param action the occurrence's action, or {@code null} (the reason is used, as events.k8s.io/v1 writes do)
	 * @return the Event to create
	 */
	static CoreV1Event create(CoreV1Event event, Instant occurred, @Nullable String action) {
		return create(event, occurred, action, null, null);
	}

	/**
	 * {@link #create(CoreV1Event, Instant, String)} of {@code recorded}'s occurrence, telling {@code fallbacks} when
	 * it writes client-go's Event.
	 */
	static CoreV1Event create(CoreV1Event event, RecordedEvent recorded, Fallbacks fallbacks) {
		return create(event, recorded.timestamp(), recorded.action(), recorded, fallbacks);
	}

	private static CoreV1Event create(CoreV1Event event, Instant occurred, @Nullable String action,
			@Nullable RecordedEvent recorded, @Nullable Fallbacks fallbacks) {
		int count = (event.getCount() != null) ? event.getCount() : 1;
		if (count > 1) {
			CoreV1Event shaped = CoreV1Events.copy(event);
			shaped.setEventTime(null);
			shaped.setSeries(new CoreV1EventSeries().count(count).lastObservedTime(EventsV1Events.microTime(occurred)));
			return shaped;
		}
		String chosenAction = (action != null) ? action : event.getAction();
		if (chosenAction == null || chosenAction.isEmpty()) {
			chosenAction = event.getReason();
		}
		Problem problem = newStyleProblem(event, chosenAction);
		if (problem != null) {
			if (fallbacks != null && recorded != null) {
				fallbacks.fellBack(problem, recorded);
			}
			return event;
		}
		CoreV1Event shaped = CoreV1Events.copy(event);
		shaped.setAction(chosenAction);
		shaped.setEventTime(EventsV1Events.microTime(occurred));
		return shaped;
	}

	/** {@link EventsV1Events#fieldProblem} as a {@link Problem} of {@code field}, {@code hint} appended. */
	private static @Nullable Problem fieldProblem(String field, @Nullable String value, String hint) {
		String problem = EventsV1Events.fieldProblem(field, value);
		return (problem != null) ? new Problem(field, problem + hint) : null;
	}

	/**
	 * Why the API server would refuse {@code event} with an {@code eventTime} through core/v1 (its validation of
	 * new-style Events), or {@code null} when it would accept it.
	 */
	static @Nullable Problem newStyleProblem(CoreV1Event event, @Nullable String action) {
		String component = event.getReportingComponent();
		if (!EventsV1Events.isQualifiedName(component)) {
			return new Problem("reportingComponent", "reportingComponent '" + component + "' (kubeevents.component)"
					+ " is not a qualified name like 'example.com/my-controller' or 'my-controller'");
		}
		Problem field = fieldProblem("reportingInstance", event.getReportingInstance(), " (the host, kubeevents.host)");
		if (field == null) {
			field = fieldProblem("action", action, "");
		}
		if (field == null) {
			field = fieldProblem("reason", event.getReason(), "");
		}
		if (field != null) {
			return field;
		}
		String message = event.getMessage();
		if (message != null && WireText.utf8Length(message) > EventsV1Events.NOTE_MAX_BYTES) {
			return new Problem("message",
					"the message is longer than " + EventsV1Events.NOTE_MAX_BYTES + " UTF-8 bytes");
		}
		String namespace = (event.getMetadata() != null) ? event.getMetadata().getNamespace() : null;
		String objectNamespace = (event.getInvolvedObject() != null) ? event.getInvolvedObject().getNamespace() : null;
		if ((objectNamespace == null || objectNamespace.isEmpty()) && !"default".equals(namespace)
				&& !"kube-system".equals(namespace)) {
			return new Problem("namespace", "an Event about a cluster-scoped object is in namespace '" + namespace
					+ "', and new-style ones must be in default or kube-system");
		}
		return null;
	}

}
