package io.github.kubeevents;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Kinds registered on a broadcaster's builder ({@link EventBroadcaster.Builder#registerKind}) reference its
 * recorders' objects that arrive without kind and apiVersion, regarding and related, and stay with that broadcaster:
 * another broadcaster's recorders do not see them (what the global {@code InvolvedObject.registerKind} could not
 * promise).
 */
class RegisteredKindsTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final List<EventBroadcaster> broadcasters = new ArrayList<>();

	@AfterEach
	void shutdown() {
		this.broadcasters.forEach((broadcaster) -> broadcaster.shutdown(WAIT));
	}

	private List<RecordedEvent> recording(EventBroadcaster broadcaster) {
		this.broadcasters.add(broadcaster);
		List<RecordedEvent> events = new CopyOnWriteArrayList<>();
		broadcaster.subscribe("capture", events::add);
		broadcaster.start();
		return events;
	}

	@Test
	void eachBroadcastersRecordersUseItsOwnKinds() {
		EventBroadcaster v1 = EventBroadcaster.builder().registerKind(Gizmo.class, "example.com/v1", "Gizmo").build();
		EventBroadcaster v2 = EventBroadcaster.builder()
			.registerKind(Gizmo.class, "example.com/v1", "Gadget")
			.registerKind(Gizmo.class, "example.com/v2", "Gizmo")
			.build();
		EventBroadcaster none = EventBroadcaster.builder().build();
		List<RecordedEvent> first = recording(v1);
		List<RecordedEvent> second = recording(v2);
		List<RecordedEvent> third = recording(none);
		v1.newRecorder(EventSource.of("a")).event(new Gizmo("g-1"), EventType.NORMAL, "Synced", "ok");
		v2.newRecorder(EventSource.of("b")).about(new Gizmo("g-1")).related(new Gizmo("g-2")).normal("Synced", "ok");
		none.newRecorder(EventSource.of("c")).event(new Gizmo("g-1"), EventType.NORMAL, "Synced", "ok");
		await().atMost(WAIT).until(() -> first.size() == 1 && second.size() == 1
				&& none.stats().dropped(DropReason.INVALID_INPUT.tag()) == 1);
		assertThat(first.get(0).regarding())
			.isEqualTo(new InvolvedObject("Gizmo", "example.com/v1", "ns", "g-1", "u-g-1", null, null));
		assertThat(second.get(0).regarding().apiVersion()).as("the later registration wins").isEqualTo("example.com/v2");
		assertThat(second.get(0).related())
			.isEqualTo(new InvolvedObject("Gizmo", "example.com/v2", "ns", "g-2", "u-g-2", null, null));
		assertThat(third).as("no registration leaks into another broadcaster").isEmpty();
	}

	@Test
	void aRecorderBoundThroughAnAdapterReferencesItsRelatedObjectByTheRegisteredKinds() {
		EventBroadcaster broadcaster = EventBroadcaster.builder()
			.registerKind(Gizmo.class, "example.com/v1", "Gizmo")
			.build();
		List<RecordedEvent> events = recording(broadcaster);
		InvolvedObject.Adapter<String> byName = (name) -> new InvolvedObject("Widget", "example.com/v1", "ns", name,
				null, null, null);
		broadcaster.newRecorder(EventSource.of("a")).about("w-1", byName).related(new Gizmo("g-2")).normal("Synced",
				"ok");
		await().atMost(WAIT).until(() -> events.size() == 1);
		assertThat(events.get(0).regarding().name()).isEqualTo("w-1");
		assertThat(events.get(0).related())
			.isEqualTo(new InvolvedObject("Gizmo", "example.com/v1", "ns", "g-2", "u-g-2", null, null));
	}

	@Test
	void objectsWithTheirOwnKindAndBuiltInModelsAreUnchanged() {
		EventBroadcaster broadcaster = EventBroadcaster.builder()
			.registerKind(io.kubernetes.client.openapi.models.V1Pod.class, "example.com/v1", "NotAPod")
			.build();
		List<RecordedEvent> events = recording(broadcaster);
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("a"));
		recorder.event(new io.kubernetes.client.openapi.models.V1Pod().apiVersion("v1").kind("Pod")
			.metadata(new V1ObjectMeta().name("web-0").namespace("ns")), EventType.NORMAL, "Started", "ok");
		await().atMost(WAIT).until(() -> events.size() == 1);
		assertThat(events.get(0).regarding().kind()).isEqualTo("Pod");
	}

	@Test
	void emptyNamesAreRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> EventBroadcaster.builder().registerKind(Gizmo.class, "", "Gizmo"))
			.withMessage("apiVersion must not be empty");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> EventBroadcaster.builder().registerKind(Gizmo.class, "example.com/v1", ""))
			.withMessage("kind must not be empty");
	}

	/** A custom resource model whose listed objects have no kind and apiVersion. */
	static final class Gizmo implements KubernetesObject {

		private final V1ObjectMeta metadata;

		Gizmo(String name) {
			this.metadata = new V1ObjectMeta().name(name).namespace("ns").uid("u-" + name);
		}

		@Override
		public V1ObjectMeta getMetadata() {
			return this.metadata;
		}

		@Override
		public String getApiVersion() {
			return null;
		}

		@Override
		public String getKind() {
			return null;
		}

	}

}
