{{/*
Names and labels shared by the templates. Every name of an object and every reference to one
comes from a helper here, so a reference cannot drift from the object it names.
*/}}

{{/* The chart name, or nameOverride. */}}
{{- define "dra4j-gpu-driver.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The base of object names: fullnameOverride, else the release name when it already contains the
chart name, else "<release>-<chart>". Kept to 40 characters so that "<base>-kubelet-plugin-metrics"
still fits a Service name (63).
*/}}
{{- define "dra4j-gpu-driver.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- $name := include "dra4j-gpu-driver.name" . }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "dra4j-gpu-driver.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels of every object. */}}
{{- define "dra4j-gpu-driver.labels" -}}
helm.sh/chart: {{ include "dra4j-gpu-driver.chart" . }}
app.kubernetes.io/name: {{ include "dra4j-gpu-driver.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: dra4j-gpu-driver
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Selector labels of the kubelet plugin's pods. */}}
{{- define "dra4j-gpu-driver.kubeletPlugin.selectorLabels" -}}
app.kubernetes.io/name: {{ include "dra4j-gpu-driver.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: kubelet-plugin
{{- end }}

{{/* Selector labels of the webhook's pods. */}}
{{- define "dra4j-gpu-driver.webhook.selectorLabels" -}}
app.kubernetes.io/name: {{ include "dra4j-gpu-driver.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: webhook
{{- end }}

{{/* The image of both the plugin and the webhook. */}}
{{- define "dra4j-gpu-driver.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* The kubelet plugin's DaemonSet, ClusterRole and ClusterRoleBinding. */}}
{{- define "dra4j-gpu-driver.kubeletPlugin.name" -}}
{{- printf "%s-kubelet-plugin" (include "dra4j-gpu-driver.fullname" .) }}
{{- end }}

{{/*
The kubelet plugin's service account. The DaemonSet's serviceAccountName, the ClusterRoleBinding's
subject and the ResourceSlice policy's match condition all take it from here.
*/}}
{{- define "dra4j-gpu-driver.kubeletPlugin.serviceAccountName" -}}
{{- if .Values.kubeletPlugin.serviceAccount.create }}
{{- default (include "dra4j-gpu-driver.kubeletPlugin.name" .) .Values.kubeletPlugin.serviceAccount.name }}
{{- else }}
{{- required "kubeletPlugin.serviceAccount.name is required when kubeletPlugin.serviceAccount.create is false" .Values.kubeletPlugin.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "dra4j-gpu-driver.kubeletPlugin.metricsServiceName" -}}
{{- printf "%s-kubelet-plugin-metrics" (include "dra4j-gpu-driver.fullname" .) }}
{{- end }}

{{- define "dra4j-gpu-driver.resourceSlicePolicy.name" -}}
{{- printf "%s-resourceslices" (include "dra4j-gpu-driver.fullname" .) }}
{{- end }}

{{/* The webhook's Deployment and Service (the Service's name is in the certificate). */}}
{{- define "dra4j-gpu-driver.webhook.name" -}}
{{- printf "%s-webhook" (include "dra4j-gpu-driver.fullname" .) }}
{{- end }}

{{- define "dra4j-gpu-driver.webhook.serviceAccountName" -}}
{{- if .Values.webhook.serviceAccount.create }}
{{- default (include "dra4j-gpu-driver.webhook.name" .) .Values.webhook.serviceAccount.name }}
{{- else }}
{{- required "webhook.serviceAccount.name is required when webhook.serviceAccount.create is false" .Values.webhook.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "dra4j-gpu-driver.webhook.certificateName" -}}
{{- include "dra4j-gpu-driver.webhook.name" . }}
{{- end }}

{{- define "dra4j-gpu-driver.webhook.issuerName" -}}
{{- printf "%s-selfsigned" (include "dra4j-gpu-driver.webhook.name" .) }}
{{- end }}

{{/*
The Secret the webhook reads its certificate from: the Certificate's, or with tls.source "secret"
the existing one named by tls.secretName.
*/}}
{{- define "dra4j-gpu-driver.webhook.secretName" -}}
{{- $tls := .Values.webhook.tls }}
{{- if eq $tls.source "secret" }}
{{- required "webhook.tls.source is \"secret\": set webhook.tls.secretName to the name of an existing kubernetes.io/tls Secret (keys tls.crt and tls.key) in the release namespace" $tls.secretName }}
{{- else }}
{{- printf "%s-tls" (include "dra4j-gpu-driver.webhook.name" .) }}
{{- end }}
{{- end }}

{{/*
webhook.tls.caBundle as the webhook configuration's caBundle (base64 of PEM), given as PEM or as
base64 of PEM; empty when it is not set. Fails on anything that is not PEM certificates.
*/}}
{{- define "dra4j-gpu-driver.webhook.caBundle" -}}
{{- $bundle := trim .Values.webhook.tls.caBundle }}
{{- if $bundle }}
{{- $pem := $bundle }}
{{- if not (hasPrefix "-----BEGIN" $bundle) }}
{{- $pem = b64dec (regexReplaceAll "\\s+" $bundle "") }}
{{- end }}
{{- if contains "PRIVATE KEY" $pem }}
{{- fail "webhook.tls.caBundle holds a private key: give only the CA certificate(s); the key belongs in the Secret" }}
{{- end }}
{{- if not (and (hasPrefix "-----BEGIN CERTIFICATE-----" (trim $pem)) (hasSuffix "-----END CERTIFICATE-----" (trim $pem))) }}
{{- fail "webhook.tls.caBundle is neither PEM certificates (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----) nor their base64" }}
{{- end }}
{{- b64enc (printf "%s\n" (trim $pem)) }}
{{- end }}
{{- end }}

{{/*
The DeviceClass of one device type: "<driverName>" for gpu, "<type>.<driverName>" otherwise, except
that under NVIDIA's driver name (gpu.nvidia.com) the MIG class is "mig.nvidia.com", the name NVIDIA's
chart gives it: claims written for NVIDIA's driver then find both their classes.
*/}}
{{- define "dra4j-gpu-driver.deviceClassName" -}}
{{- if eq .type "gpu" }}
{{- .driverName }}
{{- else if and (eq .type "mig") (eq .driverName "gpu.nvidia.com") }}
{{- "mig.nvidia.com" }}
{{- else }}
{{- printf "%s.%s" .type .driverName }}
{{- end }}
{{- end }}
