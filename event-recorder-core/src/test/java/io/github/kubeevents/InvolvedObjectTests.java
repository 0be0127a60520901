package io.github.kubeevents;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1CronJob;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Ingress;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1beta1IPAddress;
import io.kubernetes.client.openapi.models.V2HorizontalPodAutoscaler;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** Our involved-object value: normalisation, validation, and references from client-java's objects. */
class InvolvedObjectTests {

	private static V1ObjectMeta meta(String name) {
		return new V1ObjectMeta().name(name).namespace("ns").uid("u-1").resourceVersion("42");
	}

	@Test
	void emptyStringsAreStoredAsNull() {
		InvolvedObject object = new InvolvedObject("", "", "", "web-0", "", "", "");
		assertThat(object.kind()).isNull();
		assertThat(object.apiVersion()).isNull();
		assertThat(object.namespace()).isNull();
		assertThat(object.uid()).isNull();
		assertThat(object.resourceVersion()).isNull();
		assertThat(object.fieldPath()).isNull();
		assertThat(object.name()).isEqualTo("web-0");
		assertThat(object).isEqualTo(new InvolvedObject(null, null, null, "web-0", null, null, null))
			.isEqualTo(InvolvedObject.of(null, null, null, "web-0"))
			.hasSameHashCodeAs(InvolvedObject.of(null, null, "", "web-0"));
	}

	@Test
	void referencesBuiltEitherWayAreEqual() {
		InvolvedObject fromReference = InvolvedObject.of(new V1ObjectReference().kind("Pod")
			.apiVersion("v1")
			.namespace("")
			.name("web-0")
			.uid("")
			.fieldPath(""));
		assertThat(fromReference).isEqualTo(InvolvedObject.of("Pod", "v1", null, "web-0"));
	}

	@Test
	void nameIsRequired() {
		assertThatIllegalArgumentException().isThrownBy(() -> InvolvedObject.of("Pod", "v1", "ns", null))
			.withMessage("involved object has no name (kind Pod, namespace 'ns')");
		assertThatIllegalArgumentException().isThrownBy(() -> InvolvedObject.of("Node", "v1", null, ""))
			.withMessage("involved object has no name (kind Node, namespace '')");
		assertThatIllegalArgumentException().isThrownBy(() -> InvolvedObject.of(new V1ObjectReference().kind("Pod")))
			.withMessageContaining("has no name");
	}

	@Test
	void ofV1ObjectReferenceTakesEveryField() {
		V1ObjectReference ref = new V1ObjectReference().kind("Pod")
			.apiVersion("v1")
			.namespace("ns")
			.name("web-0")
			.uid("u-1")
			.resourceVersion("42")
			.fieldPath("spec.containers{web}");
		InvolvedObject object = InvolvedObject.of(ref);
		assertThat(object).isEqualTo(new InvolvedObject("Pod", "v1", "ns", "web-0", "u-1", "42", "spec.containers{web}"));
		assertThat(object.toV1ObjectReference()).isEqualTo(ref).isNotSameAs(ref);
		assertThatIllegalArgumentException().isThrownBy(() -> InvolvedObject.of((V1ObjectReference) null))
			.withMessage("involved object reference is null");
	}

	@Test
	void ofKubernetesObjectTakesNameNamespaceUidAndResourceVersionButNoFieldPath() {
		InvolvedObject object = InvolvedObject.of(new V1Pod().metadata(meta("web-0")));
		assertThat(object).isEqualTo(new InvolvedObject("Pod", "v1", "ns", "web-0", "u-1", "42", null));
	}

	@Test
	void kindAndApiVersionOfBuiltInModelsWithoutTypeMeta() {
		assertThat(kindAndApiVersion(new V1Pod().metadata(meta("x")))).isEqualTo("Pod v1");
		assertThat(kindAndApiVersion(new V1Node().metadata(meta("x")))).isEqualTo("Node v1");
		assertThat(kindAndApiVersion(new V1Namespace().metadata(meta("x")))).isEqualTo("Namespace v1");
		assertThat(kindAndApiVersion(new V1Deployment().metadata(meta("x")))).isEqualTo("Deployment apps/v1");
		assertThat(kindAndApiVersion(new V1CronJob().metadata(meta("x")))).isEqualTo("CronJob batch/v1");
		assertThat(kindAndApiVersion(new V2HorizontalPodAutoscaler().metadata(meta("x"))))
			.isEqualTo("HorizontalPodAutoscaler autoscaling/v2");
		assertThat(kindAndApiVersion(new V1Ingress().metadata(meta("x")))).isEqualTo("Ingress networking.k8s.io/v1");
		assertThat(kindAndApiVersion(new V1Lease().metadata(meta("x")))).isEqualTo("Lease coordination.k8s.io/v1");
		assertThat(kindAndApiVersion(new V1ClusterRole().metadata(meta("x"))))
			.isEqualTo("ClusterRole rbac.authorization.k8s.io/v1");
		assertThat(kindAndApiVersion(new V1beta1IPAddress().metadata(meta("x"))))
			.isEqualTo("IPAddress networking.k8s.io/v1beta1");
		assertThat(kindAndApiVersion(new CoreV1Event().metadata(meta("x")))).isEqualTo("Event v1");
		assertThat(kindAndApiVersion(new EventsV1Event().metadata(meta("x")))).isEqualTo("Event events.k8s.io/v1");
	}

	@Test
	void typeMetaOfTheObjectWins() {
		assertThat(kindAndApiVersion(new V1Pod().kind("Custom").apiVersion("example.com/v2").metadata(meta("x"))))
			.isEqualTo("Custom example.com/v2");
		// one of the two set: the other comes from the class
		assertThat(kindAndApiVersion(new V1Deployment().apiVersion("apps/v1beta2").metadata(meta("x"))))
			.isEqualTo("Deployment apps/v1beta2");
		assertThat(kindAndApiVersion(new V1Deployment().kind("Deployment").apiVersion("").metadata(meta("x"))))
			.isEqualTo("Deployment apps/v1");
	}

	/** A custom resource as client-java users model it: no kind or apiVersion on objects from informers. */
	static final class Widget implements KubernetesObject {

		private final V1ObjectMeta metadata;

		Widget(V1ObjectMeta metadata) {
			this.metadata = metadata;
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

	/** A custom resource class nobody registered. */
	static final class Gadget implements KubernetesObject {

		@Override
		public V1ObjectMeta getMetadata() {
			return meta("g");
		}

		@Override
		public String getApiVersion() {
			return "";
		}

		@Override
		public String getKind() {
			return "";
		}

	}

	@Test
	void registeredCustomResourceClassGetsItsKind() {
		InvolvedObject.registerKind(Widget.class, "example.com/v1", "Widget");
		assertThat(InvolvedObject.of(new Widget(meta("w-1"))))
			.isEqualTo(new InvolvedObject("Widget", "example.com/v1", "ns", "w-1", "u-1", "42", null));
		InvolvedObject.registerKind(Widget.class, "example.com/v2", "Widget");
		assertThat(InvolvedObject.of(new Widget(meta("w-1"))).apiVersion()).isEqualTo("example.com/v2");
	}

	@Test
	void unknownClassWithoutTypeMetaIsRefusedWithAClearMessage() {
		assertThatIllegalArgumentException().isThrownBy(() -> InvolvedObject.of(new Gadget()))
			.withMessage("no kind is registered for " + Gadget.class.getName()
					+ " and the object has no kind/apiVersion; set them, or call InvolvedObject.registerKind");
	}

	@Test
	void objectsWithoutANameAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> InvolvedObject.of(new V1Pod()))
			.withMessage("involved object has no metadata.name: V1Pod");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> InvolvedObject.of(new V1Pod().metadata(new V1ObjectMeta().name(""))))
			.withMessage("involved object has no metadata.name: V1Pod");
		assertThatIllegalArgumentException().isThrownBy(() -> InvolvedObject.of((KubernetesObject) null))
			.withMessage("involved object is null");
	}

	@Test
	void withersCopyOneField() {
		InvolvedObject pod = InvolvedObject.of("Pod", "v1", "ns", "web-0");
		assertThat(pod.withFieldPath("spec.containers{web}"))
			.isEqualTo(new InvolvedObject("Pod", "v1", "ns", "web-0", null, null, "spec.containers{web}"));
		assertThat(pod.withUid("u")).isEqualTo(new InvolvedObject("Pod", "v1", "ns", "web-0", "u", null, null));
		assertThat(pod.withResourceVersion("7"))
			.isEqualTo(new InvolvedObject("Pod", "v1", "ns", "web-0", null, "7", null));
		assertThat(pod.withUid("u").withFieldPath("")).isEqualTo(pod.withUid("u"));
	}

	@Test
	void displayNameIsNamespaceSlashNameOrJustTheName() {
		assertThat(InvolvedObject.of("Pod", "v1", "ns", "web-0").displayName()).isEqualTo("ns/web-0");
		assertThat(InvolvedObject.of("Node", "v1", "", "node-1").displayName()).isEqualTo("node-1");
	}

	private static String kindAndApiVersion(KubernetesObject object) {
		InvolvedObject reference = InvolvedObject.of(object);
		return reference.kind() + " " + reference.apiVersion();
	}

}
