package io.github.dra4j.cli;

import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceList;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.github.dra4j.cel.SelectorExplainer;
import io.github.dra4j.cel.SelectorExplanation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads ResourceSlices ({@code resource.k8s.io/v1}) from a YAML or JSON file: one slice, several
 * YAML documents, a {@code List} or a {@code ResourceSliceList} (what {@code kubectl get
 * resourceslices -o yaml} prints). Objects of other kinds are skipped and reported, not fatal.
 *
 * @param slices the slices, in file order
 * @param skipped one note per skipped object, naming it
 */
public record SliceFile(List<ResourceSlice> slices, List<String> skipped) {

  /**
   * Copies the lists.
   *
   * @param slices the ResourceSlices found, in file order; copied, no null elements
   * @param skipped one note per object that is not a {@code resource.k8s.io/v1} ResourceSlice,
   *     naming its apiVersion, kind and name; copied, no null elements
   * @throws NullPointerException if a list or one of its elements is null
   */
  public SliceFile {
    slices = List.copyOf(slices);
    skipped = List.copyOf(skipped);
  }

  /**
   * Reads a file.
   *
   * @param file the YAML or JSON file
   * @return the slices found and notes about skipped objects
   * @throws IOException naming the file when it cannot be read or parsed
   */
  public static SliceFile read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return read(in, file.toString());
    }
  }

  /**
   * Reads slices from a stream.
   *
   * @param in YAML or JSON
   * @param source the name to use in errors, e.g. the file name
   * @return the slices found and notes about skipped objects
   * @throws IOException naming the source when the content cannot be parsed
   */
  public static SliceFile read(InputStream in, String source) throws IOException {
    Object parsed;
    try {
      parsed = new KubernetesSerialization().unmarshal(in);
    } catch (RuntimeException e) {
      throw new IOException(
          source + ": not valid YAML or JSON Kubernetes objects: " + e.getMessage(), e);
    }
    List<ResourceSlice> slices = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    collect(parsed, slices, skipped);
    return new SliceFile(slices, skipped);
  }

  private static void collect(Object parsed, List<ResourceSlice> slices, List<String> skipped) {
    if (parsed == null) {
      return;
    }
    if (parsed instanceof ResourceSlice resourceSlice) {
      slices.add(resourceSlice);
    } else if (parsed instanceof ResourceSliceList resourceSliceList) {
      slices.addAll(resourceSliceList.getItems());
    } else if (parsed instanceof KubernetesList kubernetesList) {
      kubernetesList.getItems().forEach(item -> collect(item, slices, skipped));
    } else if (parsed instanceof List) {
      ((List<?>) parsed).forEach(item -> collect(item, slices, skipped));
    } else if (parsed instanceof io.fabric8.kubernetes.api.model.HasMetadata object) {
      skipped.add(object.getApiVersion() + " " + object.getKind() + " "
          + (object.getMetadata() == null ? "" : object.getMetadata().getName())
          + ": not a resource.k8s.io/v1 ResourceSlice, skipped");
    } else {
      skipped.add(parsed.getClass().getSimpleName() + ": not a Kubernetes object, skipped");
    }
  }

  /**
   * Explains a selector over the devices of this file, with its skip notes first.
   *
   * @param explainer the explainer to use
   * @param expression the selector expression
   * @return the explanation, its notes preceded by this file's skip notes
   */
  public SelectorExplanation explain(SelectorExplainer explainer, String expression) {
    SelectorExplanation explanation = explainer.explain(expression, slices);
    List<String> notes = new ArrayList<>(skipped);
    notes.addAll(explanation.notes());
    return new SelectorExplanation(
        expression, explanation.compileError(), explanation.devices(), notes);
  }
}
