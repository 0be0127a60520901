package io.github.kubeevents;

import java.time.Instant;

import io.github.kubeevents.sink.EventShape;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.CoreV1EventSeries;
import org.jspecify.annotations.Nullable;

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
 * <tr><td>events.k8s.io/v1 readers (OTel PR #50962, Headlamp)</td><td>{@code series.count} (1 without a series)</td>
 * <td>{@code series.lastObservedTime}, else {@code eventTime}</td></tr>
 * </table>
 *
 * So a first occurrence carries {@code eventTime} (with {@code action}, which the server then requires) and a
 * repeat carries a series and no {@code eventTime} (else the core/v1 readers would keep showing the first
 * occurrence, and kubectl would measure "over" from the latest). {@code eventTime} makes the API server validate the
 * Event as a new-style one; an Event that would fail that is written without it, as client-go writes it.
 *
 * <p>Stateless and thread-safe.
 */
final class ReadersShape {

	private ReadersShape() {
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
		if (newStyleProblem(event, chosenAction) != null) {
			return event;
		}
		CoreV1Event shaped = CoreV1Events.copy(event);
		shaped.setAction(chosenAction);
		shaped.setEventTime(EventsV1Events.microTime(occurred));
		return shaped;
	}

	/**
	 * Why the API server would refuse {@code event} with an {@code eventTime} through core/v1 (its validation of
	 * new-style Events), or {@code null} when it would accept it.
	 */
	static @Nullable String newStyleProblem(CoreV1Event event, @Nullable String action) {
		String component = event.getReportingComponent();
		if (!EventsV1Events.isQualifiedName(component)) {
			return "reportingComponent '" + component + "' is not a qualified name";
		}
		String fieldProblem = EventsV1Events.fieldProblem("reportingInstance", event.getReportingInstance());
		if (fieldProblem == null) {
			fieldProblem = EventsV1Events.fieldProblem("action", action);
		}
		if (fieldProblem == null) {
			fieldProblem = EventsV1Events.fieldProblem("reason", event.getReason());
		}
		if (fieldProblem != null) {
			return fieldProblem;
		}
		String message = event.getMessage();
		if (message != null && WireText.utf8Length(message) > EventsV1Events.NOTE_MAX_BYTES) {
			return "message is longer than " + EventsV1Events.NOTE_MAX_BYTES + " UTF-8 bytes";
		}
		String namespace = (event.getMetadata() != null) ? event.getMetadata().getNamespace() : null;
		String objectNamespace = (event.getInvolvedObject() != null) ? event.getInvolvedObject().getNamespace() : null;
		if ((objectNamespace == null || objectNamespace.isEmpty()) && !"default".equals(namespace)
				&& !"kube-system".equals(namespace)) {
			return "an Event about a cluster-scoped object must be in namespace default or kube-system";
		}
		return null;
	}

}
