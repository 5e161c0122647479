export {
  type ScriptedModelOptions,
  type ScriptedResponse,
  type ScriptInput,
  scriptedModel,
} from './scripted-model';
