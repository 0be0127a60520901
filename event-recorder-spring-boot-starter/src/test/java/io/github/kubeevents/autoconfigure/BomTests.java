package io.github.kubeevents.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bill of materials, {@code event-recorder-bom}, has no parent (an imported BOM would bring its parent's
 * dependency management, Spring Boot's and fabric8's versions, into the application), so nothing in Maven keeps it
 * in step with the build: this test does. Its version is the root pom's; it manages exactly the published modules
 * (the root pom's modules but the BOM itself and those with {@code maven.deploy.skip}), each at
 * {@code ${project.version}}; the README's dependency snippet imports it at that version.
 */
class BomTests {

	private static final Path ROOT = Path.of("..");

	private static final String GROUP = "io.github.kubeevents";

	private static Element pom(Path path) throws Exception {
		DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
		factory.setNamespaceAware(false);
		Document document = factory.newDocumentBuilder().parse(path.toFile());
		return document.getDocumentElement();
	}

	private static List<Element> children(Element parent, String name) {
		List<Element> children = new ArrayList<>();
		NodeList nodes = parent.getChildNodes();
		for (int i = 0; i < nodes.getLength(); i++) {
			Node node = nodes.item(i);
			if (node instanceof Element element && element.getTagName().equals(name)) {
				children.add(element);
			}
		}
		return children;
	}

	private static String text(Element parent, String name) {
		List<Element> children = children(parent, name);
		return children.isEmpty() ? "" : children.get(0).getTextContent().trim();
	}

	private static String rootVersion() throws Exception {
		return text(pom(ROOT.resolve("pom.xml")), "version");
	}

	private static Set<String> publishedModules() throws Exception {
		Set<String> published = new TreeSet<>();
		Element root = pom(ROOT.resolve("pom.xml"));
		for (Element module : children(children(root, "modules").get(0), "module")) {
			String name = module.getTextContent().trim();
			Element modulePom = pom(ROOT.resolve(name).resolve("pom.xml"));
			List<Element> properties = children(modulePom, "properties");
			boolean deploySkipped = !properties.isEmpty()
					&& text(properties.get(0), "maven.deploy.skip").equals("true");
			if (!name.equals("event-recorder-bom") && !deploySkipped) {
				published.add(text(modulePom, "artifactId"));
			}
		}
		return published;
	}

	@Test
	void theBomHasTheBuildsVersionAndNoParent() throws Exception {
		Element bom = pom(ROOT.resolve("event-recorder-bom/pom.xml"));
		assertThat(children(bom, "parent")).as("a parent's dependencyManagement would be imported with the BOM")
			.isEmpty();
		assertThat(text(bom, "groupId")).isEqualTo(GROUP);
		assertThat(text(bom, "packaging")).isEqualTo("pom");
		assertThat(text(bom, "version")).isEqualTo(rootVersion());
	}

	@Test
	void theBomManagesEveryPublishedModuleAndNothingElse() throws Exception {
		Element bom = pom(ROOT.resolve("event-recorder-bom/pom.xml"));
		Element dependencies = children(children(bom, "dependencyManagement").get(0), "dependencies").get(0);
		Set<String> managed = new TreeSet<>();
		for (Element dependency : children(dependencies, "dependency")) {
			assertThat(text(dependency, "groupId")).isEqualTo(GROUP);
			assertThat(text(dependency, "version")).isEqualTo("${project.version}");
			assertThat(text(dependency, "scope")).as("a BOM sets no scope").isEmpty();
			managed.add(text(dependency, "artifactId"));
		}
		assertThat(publishedModules()).contains("event-recorder-core", "event-recorder-spring-boot-starter")
			.doesNotContain("sample-app", "benchmarks", "example-josdk-operator");
		assertThat(managed).isEqualTo(publishedModules());
	}

	@Test
	void theReadmeImportsTheBomAtTheBuildsVersion() throws Exception {
		String readme = Files.readString(ROOT.resolve("README.md"));
		assertThat(readme).contains("<artifactId>event-recorder-bom</artifactId>")
			.contains("<version>" + rootVersion() + "</version>")
			.contains("<type>pom</type>")
			.contains("<scope>import</scope>");
	}

}
