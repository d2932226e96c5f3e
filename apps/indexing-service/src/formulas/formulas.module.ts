import { Module } from '@nestjs/common';
import { PipelineCoreModule } from '../pipeline/pipeline-core.module';
import { FormulaAugmentationConsumer, LargeFileFormulaAugmentationConsumer } from './formula-augmentation.consumer';

/** formula_augmentation: node.updated → rule → read formulas → node attributes → node.updated (augmented). */
@Module({
  imports: [PipelineCoreModule],
  providers: [FormulaAugmentationConsumer, LargeFileFormulaAugmentationConsumer],
})
export class FormulasModule {}
