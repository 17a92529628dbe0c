{{/*
Names and labels the templates share. Every object name, and every reference to one, comes from
a helper here, so that a reference cannot drift from the object it names.
*/}}

{{/* The chart name, or nameOverride. */}}
{{- define "${artifactId}.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The base of object names: fullnameOverride, else the release name if it holds the chart name,
else "<release>-<chart>"; at most 40 characters, so that every suffix below fits 63.
*/}}
{{- define "${artifactId}.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- $name := include "${artifactId}.name" . }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Labels of every object. */}}
{{- define "${artifactId}.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "${artifactId}.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Selector labels of the kubelet plugin's pods. */}}
{{- define "${artifactId}.kubeletPlugin.selectorLabels" -}}
app.kubernetes.io/name: {{ include "${artifactId}.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: kubelet-plugin
{{- end }}

{{/* Selector labels of the webhook's pods. */}}
{{- define "${artifactId}.webhook.selectorLabels" -}}
app.kubernetes.io/name: {{ include "${artifactId}.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: webhook
{{- end }}

{{/* The one image of the kubelet plugin and the webhook. */}}
{{- define "${artifactId}.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* The kubelet plugin's DaemonSet, ClusterRole and ClusterRoleBinding. */}}
{{- define "${artifactId}.kubeletPlugin.name" -}}
{{- printf "%s-kubelet-plugin" (include "${artifactId}.fullname" .) }}
{{- end }}

{{/*
The kubelet plugin's service account: the DaemonSet's serviceAccountName, the binding's subject
and the ResourceSlice policy's match condition all take it from here.
*/}}
{{- define "${artifactId}.kubeletPlugin.serviceAccountName" -}}
{{- if .Values.kubeletPlugin.serviceAccount.create }}
{{- default (include "${artifactId}.kubeletPlugin.name" .) .Values.kubeletPlugin.serviceAccount.name }}
{{- else }}
{{- required "kubeletPlugin.serviceAccount.name is required when kubeletPlugin.serviceAccount.create is false" .Values.kubeletPlugin.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "${artifactId}.resourceSlicePolicy.name" -}}
{{- printf "%s-resourceslices" (include "${artifactId}.fullname" .) }}
{{- end }}

{{/* The webhook's Deployment, Service, service account and Certificate. */}}
{{- define "${artifactId}.webhook.name" -}}
{{- printf "%s-webhook" (include "${artifactId}.fullname" .) }}
{{- end }}

{{- define "${artifactId}.webhook.issuerName" -}}
{{- printf "%s-selfsigned" (include "${artifactId}.webhook.name" .) }}
{{- end }}

{{- define "${artifactId}.webhook.secretName" -}}
{{- printf "%s-tls" (include "${artifactId}.webhook.name" .) }}
{{- end }}
